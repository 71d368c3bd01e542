-- Sets one day-and-group open count as moved from another store (npm run store -- move): the moved
-- count replaces the day's own for that group, and the day's index of its opens follows in the same
-- step (built from the hash first when the day has none).
-- KEYS: the day's keys (dayKeys: 1 the opens, 2 their total, 3-7 by dimension).
-- ARGV: the group (JSON), its count, when the day expires (ms since the epoch).
-- Returns: 1 when the day counted the group already, 0 when not.
--#include ../redis-open-index.lua
index(1)
local field, count = ARGV[1], tonumber(ARGV[2])
local had = tonumber(redis.call('HGET', KEYS[1], field) or '0')
redis.call('HSET', KEYS[1], field, count)
byDims(1, field, count - had)
redis.call('INCRBY', KEYS[2], count - had)
for i = 1, 7 do redis.call('PEXPIREAT', KEYS[i], tonumber(ARGV[3])) end
if had > 0 then return 1 end
return 0
