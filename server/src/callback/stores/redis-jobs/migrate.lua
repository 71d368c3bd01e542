-- Rewrites, once, a job hash written before stages existed (a `kind` and a JSON `notes`).
-- KEYS: 1 ready, 2 pending, 3 numbers (every key of the group "jobs"; the scripts name them from ARGV[1])
-- ARGV: 1 keyspace, 2 callbackId, 3… today's fields (name, value pairs)
-- Returns: 1 when rewritten, 0 when absent or rewritten already
--#include jobs.lua
local k = jobKey(ARGV[2])
if redis.call('EXISTS', k) == 0 or redis.call('HEXISTS', k, 'stage') == 1 then return 0 end
local fields = {}
for i = 3, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', k, unpack(fields))
redis.call('HDEL', k, 'kind', 'notes')
return 1
