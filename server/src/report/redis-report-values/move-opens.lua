-- Moves a group's count of opens to the erased group's, as the count is now (a count made meanwhile
-- is never lost); the key keeps its expiry.
-- KEYS: KEYS[1], a day's opens ("<keyspace>opens:<day>").
-- ARGV: the group's field, the erased group's field.
-- Returns: 1 when moved, 0 when the group has no count that day.
local n = redis.call('HGET', KEYS[1], ARGV[1])
if not n then return 0 end
local ttl = redis.call('PTTL', KEYS[1])
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HINCRBY', KEYS[1], ARGV[2], n)
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
return 1
