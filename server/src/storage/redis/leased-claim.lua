-- The leased claim of a queue in a sorted set (the job store's and the outbox's): up to `limit` of
-- the first `scan` ids due by `now`, earliest first (then by id), each leased to `owner` until
-- now + leaseMs. The id's score becomes its lease's end, so an id whose owner died is due again once
-- its lease expired; an id whose hash is no longer pending leaves the set. Each claim counts an attempt.
--   keyOf(id)          the id's hash
--   dueField           the hash field that says when the id is due
--   claimable(k, due)  whether a pending id may be claimed now (nil: every pending one)
--   stamp(k)           what else a claim writes, before the lease (nil: nothing)
local function leasedClaim(set, now, owner, leaseMs, limit, scan, keyOf, dueField, claimable, stamp)
  local candidates = {}
  for _, id in ipairs(redis.call('ZRANGE', set, '-inf', now, 'BYSCORE', 'LIMIT', 0, scan)) do
    local k = keyOf(id)
    local state, due = unpack(redis.call('HMGET', k, 'state', dueField))
    if state ~= 'pending' then
      redis.call('ZREM', set, id)
    elseif claimable == nil or claimable(k, tonumber(due)) then
      candidates[#candidates + 1] = { id, tonumber(due) }
    end
  end
  table.sort(candidates, function(a, b) if a[2] == b[2] then return a[1] < b[1] end return a[2] < b[2] end)
  local out = {}
  for i = 1, math.min(limit, #candidates) do
    local id = candidates[i][1]
    local k = keyOf(id)
    if stamp then stamp(k) end
    redis.call('HSET', k, 'owner', owner, 'lease', now + leaseMs)
    redis.call('HINCRBY', k, 'attempts', 1)
    redis.call('ZADD', set, now + leaseMs, id)
    out[#out + 1] = id
  end
  return out
end
