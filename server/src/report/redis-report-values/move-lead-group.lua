-- Moves a group with a lead to the erased group's member; the newest lead's time goes with it.
-- KEYS: KEYS[1], the groups with a lead ("<keyspace>lead-groups").
-- ARGV: the group's member, the erased group's.
-- Returns: 1 when moved, 0 when the group is not there.
local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not at then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[1], 'GT', at, ARGV[2])
return 1
