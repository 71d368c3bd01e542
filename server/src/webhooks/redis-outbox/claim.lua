-- Leases a channel's due entries to one deliverer.
-- KEYS: 1 the channel's due set
-- ARGV: 1 keyspace, 2 owner, 3 now, 4 leaseMs, 5 limit, 6 scan (candidates looked at)
-- Returns: the claimed event ids, earliest due first (then read with HGETALL)
--#include outbox.lua
--#include ../../storage/redis/leased-claim.lua
local owner, now, leaseMs, limit, scan = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
return leasedClaim(due, now, owner, leaseMs, limit, scan, evKey, 'next', nil, nil)
