-- Extends the lease of a job its owner still holds.
-- KEYS: 1 ready, 2 pending, 3 numbers (every key of the group "jobs"; the scripts name them from ARGV[1])
-- ARGV: 1 keyspace, 2 callbackId, 3 owner, 4 now, 5 leaseMs
-- Returns: 1, or 0 when the owner no longer holds an unexpired lease on it
--#include jobs.lua
local id, owner, now, leaseMs = ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
local k = jobKey(id)
local st, o = unpack(redis.call('HMGET', k, 'state', 'owner'))
if st ~= 'pending' or o ~= owner or not leased(k, now) then return 0 end
redis.call('HSET', k, 'lease', now + leaseMs)
redis.call('ZADD', ready, now + leaseMs, id)
return 1
