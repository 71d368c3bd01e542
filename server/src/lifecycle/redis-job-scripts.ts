// The job store's Lua scripts (redis-job-store.ts): each step is one script, so a claim, a step or
// a cancel is atomic across relays. Every script starts with COMMON's helpers, and every key it
// touches is in the group "jobs" (one hash tag, one Cluster slot).
import { lua } from '../storage/redis/connection.ts';

const COMMON = `
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
local function finish(id, k, stage, state, outcome, now, retention)
  unindex(id, k)
  redis.call('HSET', k, 'stage', stage, 'state', state, 'owner', '', 'lease', '', 'updated', now)
  if outcome then redis.call('HSET', k, 'outcome', outcome) end
  redis.call('HDEL', k, 'e164', 'clientIp', 'userAgent')
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
`;

// ARGV: space, id, stage, dueAt, numberHash, fields… (pairs). Returns 'ok' | 'duplicate' | 'number'
export const ADD = lua(`${COMMON}
local id, stage, due, nh = ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5]
local k = jobKey(id)
if redis.call('EXISTS', k) == 1 then return 'duplicate' end
if stage == 'scheduled' then
  if redis.call('HSETNX', numbers, nh, id) == 0 then return 'number' end
end
local fields = {}
for i = 6, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', k, unpack(fields))
redis.call('ZADD', ready, due, id)
redis.call('ZADD', pending, due, id)
return 'ok'
`);

// ARGV: space, owner, now, leaseMs, limit, scan. Returns the claimed ids (then read with HGETALL).
export const CLAIM = lua(`${COMMON}
local owner, now, leaseMs, limit, scan = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local candidates = {}
for _, id in ipairs(redis.call('ZRANGE', ready, '-inf', now, 'BYSCORE', 'LIMIT', 0, scan)) do
  local k = jobKey(id)
  local state, due = unpack(redis.call('HMGET', k, 'state', 'due'))
  if state == 'pending' and tonumber(due) <= now and not leased(k, now) then
    candidates[#candidates + 1] = { id, tonumber(due) }
  elseif state ~= 'pending' then
    redis.call('ZREM', ready, id)
  end
end
table.sort(candidates, function(a, b) if a[2] == b[2] then return a[1] < b[1] end return a[2] < b[2] end)
local out = {}
for i = 1, math.min(limit, #candidates) do
  local id = candidates[i][1]
  local k = jobKey(id)
  local prev = redis.call('HGET', k, 'owner')
  local interrupted = (prev and prev ~= '') and '1' or '0'
  redis.call('HSET', k, 'owner', owner, 'lease', now + leaseMs, 'interrupted', interrupted, 'updated', now)
  redis.call('HINCRBY', k, 'attempts', 1)
  redis.call('ZADD', ready, now + leaseMs, id)
  out[#out + 1] = id
end
return out
`);

// ARGV: space, id, owner, now, leaseMs
export const RENEW = lua(`${COMMON}
local id, owner, now, leaseMs = ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
local k = jobKey(id)
local st, o = unpack(redis.call('HMGET', k, 'state', 'owner'))
if st ~= 'pending' or o ~= owner or not leased(k, now) then return 0 end
redis.call('HSET', k, 'lease', now + leaseMs)
redis.call('ZADD', ready, now + leaseMs, id)
return 1
`);

// ARGV: space, id, owner, from, stage, state, outcome, now, retentionMs
export const FINISH = lua(`${COMMON}
local id, owner, from = ARGV[2], ARGV[3], ARGV[4]
local k = jobKey(id)
if not held(k, owner, from) then return 0 end
finish(id, k, ARGV[5], ARGV[6], ARGV[7], tonumber(ARGV[8]), tonumber(ARGV[9]))
return 1
`);

// ARGV: space, id, owner, from, stage, dueAt, now, progress fields… (pairs; '' clears one)
export const WAIT = lua(`${COMMON}
local id, owner, from, stage, due, now = ARGV[2], ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])
local k = jobKey(id)
if not held(k, owner, from) then return 0 end
local nh = redis.call('HGET', k, 'numberHash')
if stage == 'scheduled' then
  local holder = redis.call('HGET', numbers, nh)
  if holder and holder ~= id then return 0 end
  redis.call('HSET', numbers, nh, id)
elseif redis.call('HGET', numbers, nh) == id then
  redis.call('HDEL', numbers, nh)
end
redis.call('HSET', k, 'stage', stage, 'due', due, 'owner', '', 'lease', '', 'updated', now)
for i = 8, #ARGV, 2 do
  if ARGV[i + 1] == '' then redis.call('HDEL', k, ARGV[i]) else redis.call('HSET', k, ARGV[i], ARGV[i + 1]) end
end
redis.call('ZADD', ready, due, id)
redis.call('ZADD', pending, due, id)
return 1
`);

// ARGV: space, id, cancelHash ('' for the owner), now, retentionMs, cancellable stages…
export const CANCEL = lua(`${COMMON}
local id, hash, now = ARGV[2], ARGV[3], tonumber(ARGV[4])
local k = jobKey(id)
local stored, state, stage = unpack(redis.call('HMGET', k, 'cancel', 'state', 'stage'))
if not state then return 'not_found' end
if hash ~= '' and (not stored or stored == '' or stored ~= hash) then return 'wrong_token' end
if state ~= 'pending' then return 'not_pending' end
local allowed = false
for i = 6, #ARGV do if ARGV[i] == stage then allowed = true end end
if not allowed then return 'placed' end
if leased(k, now) then return 'in_progress' end
finish(id, k, 'cancelled', 'cancelled', false, now, tonumber(ARGV[5]))
return 'cancelled'
`);

// ARGV: space, id, fields… (pairs). Rewrites one job hash written before stages existed, once.
export const MIGRATE = lua(`${COMMON}
local k = jobKey(ARGV[2])
if redis.call('EXISTS', k) == 0 or redis.call('HEXISTS', k, 'stage') == 1 then return 0 end
local fields = {}
for i = 3, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', k, unpack(fields))
redis.call('HDEL', k, 'kind', 'notes')
return 1
`);
