-- What every job script shares: its keys, named from the keyspace in ARGV[1] (the group "jobs", one
-- hash tag, one Cluster slot), and the helpers that read a lease and end a job.
local space = ARGV[1]
local ready, pending, numbers, failed = space .. 'ready', space .. 'pending', space .. 'numbers', space .. 'failed'
local function jobKey(id) return space .. 'job:' .. id end
local function leased(k, now)
  local owner, exp = unpack(redis.call('HMGET', k, 'owner', 'lease'))
  return owner and owner ~= '' and tonumber(exp) > now
end
local function unindex(id, k)
  redis.call('ZREM', ready, id)
  redis.call('ZREM', pending, id)
  local nh = redis.call('HGET', k, 'numberHash')
  if redis.call('HGET', numbers, nh) == id then redis.call('HDEL', numbers, nh) end
end
-- forget: '1' when the stage drops the number, address and user agent (stages.ts forgetsNumber)
local function finish(id, k, stage, state, outcome, now, retention, forget)
  unindex(id, k)
  redis.call('HSET', k, 'stage', stage, 'state', state, 'owner', '', 'lease', '', 'updated', now)
  if outcome then redis.call('HSET', k, 'outcome', outcome) end
  if forget == '1' then redis.call('HDEL', k, 'e164', 'clientIp', 'userAgent') end
  redis.call('PEXPIRE', k, retention)
  if state == 'failed' then
    redis.call('ZADD', failed, now, id)
    redis.call('ZREMRANGEBYSCORE', failed, '-inf', now - retention)
    redis.call('PEXPIRE', failed, retention)
  end
end
local function held(k, owner, stage)
  local st, o, sg = unpack(redis.call('HMGET', k, 'state', 'owner', 'stage'))
  return st == 'pending' and o == owner and sg == stage
end
