-- Moves a group's count of opens to the erased group's, as the count is now (a count made meanwhile
-- is never lost), in the day's hash and its index; the keys keep their expiry.
-- KEYS: the day's keys (dayKeys: 1 the opens, 2 their total, 3-7 by dimension).
-- ARGV: the group's field, the erased group's field.
-- Returns: 1 when moved, 0 when the group has no count that day.
--#include ../redis-open-index.lua
index(1)
local n = redis.call('HGET', KEYS[1], ARGV[1])
if not n then return 0 end
local ttl = redis.call('PTTL', KEYS[1])
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HINCRBY', KEYS[1], ARGV[2], n)
byDims(1, ARGV[1], -tonumber(n))
byDims(1, ARGV[2], tonumber(n))
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
keepFor(1, ttl)
return 1
