-- Leases due jobs to one relay. A job taken over from an owner whose lease expired is flagged
-- `interrupted`: that owner may have placed the call.
-- KEYS: 1 ready, 2 pending, 3 numbers (every key of the group "jobs"; the scripts name them from ARGV[1])
-- ARGV: 1 keyspace, 2 owner, 3 now, 4 leaseMs, 5 limit, 6 scan (candidates looked at)
-- Returns: the claimed ids, earliest due first (then read with HGETALL)
--#include jobs.lua
--#include ../../../storage/redis/leased-claim.lua
local owner, now, leaseMs, limit, scan = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local function claimable(k, due) return due <= now and not leased(k, now) end
local function stamp(k)
  local prev = redis.call('HGET', k, 'owner')
  redis.call('HSET', k, 'interrupted', (prev and prev ~= '') and '1' or '0', 'updated', now)
end
return leasedClaim(ready, now, owner, leaseMs, limit, scan, jobKey, 'due', claimable, stamp)
