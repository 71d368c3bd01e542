-- Begins a request under its Idempotency-Key: expires, looks up, makes room and inserts atomically,
-- so two relays beginning the same key at once get one 'new' and one 409 (redis-store.ts).
-- KEYS: all, done (the entries' own keys, "<keyspace>k:<id>", share their hash tag).
-- ARGV: keyspace, id, fingerprint, now, ttlMs, maxKeys, evictBatch, walk, slackMs.
-- Returns: {'new', created} | {'replay', replyJson} | {'reused'} | {'running'} | {'full'}.
local all, done = KEYS[1], KEYS[2]
local space, id, fp = ARGV[1], ARGV[2], ARGV[3]
local now, ttl, max, batch, walk, slack = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local function drop(eid)
  redis.call('DEL', space .. 'k:' .. eid)
  redis.call('ZREM', all, eid)
  redis.call('ZREM', done, eid)
end
local function expire(n)
  for _, eid in ipairs(redis.call('ZRANGE', all, '-inf', now, 'BYSCORE', 'LIMIT', 0, n)) do drop(eid) end
end
expire(walk)
local key = space .. 'k:' .. id
local found = redis.call('HMGET', key, 'f', 'c', 'e', 'r')
local prevCreated = nil
if found[1] then
  if tonumber(found[3]) > now then
    if found[1] ~= fp then return {'reused'} end
    if not found[4] then return {'running'} end
    return {'replay', found[4]}
  end
  prevCreated = tonumber(found[2])
  drop(id)
end
if redis.call('ZCARD', all) >= max then
  expire(max)
  if redis.call('ZCARD', all) >= max then
    for _, eid in ipairs(redis.call('ZRANGE', done, 0, batch - 1)) do drop(eid) end
  end
  if redis.call('ZCARD', all) >= max then return {'full'} end
end
local created = now
if prevCreated and prevCreated >= now then created = prevCreated + 1 end
redis.call('HSET', key, 'f', fp, 'c', created, 'e', now + ttl)
redis.call('PEXPIRE', key, ttl)
redis.call('ZADD', all, now + ttl, id)
redis.call('PEXPIRE', all, ttl + slack)
redis.call('PEXPIRE', done, ttl + slack)
return {'new', tostring(created)}
