-- A day's index of its opens (redis-open-index.ts), included by the scripts that count, move and
-- read a day's opens. Over a day's keys as dayKeys names them from KEYS[o]: the opens hash, its
-- total, then one sorted set value → opens per dimension (source, medium, campaign, department,
-- page: the five of a group's JSON array, in that order).
--   index(o)              builds the index from the hash when the day has none (counted before it)
--   byDims(o, field, n)   adds n (may be negative) to the field's value in every dimension's set
--   keepFor(o, ttl)       gives every index key without an expiry the one given (ms)
-- A field that is not a JSON array of strings counts as '' in every dimension.
local DIMS = 5
local function groupOf(field)
  local ok, g = pcall(cjson.decode, field)
  if not ok or type(g) ~= 'table' then g = {} end
  local values = {}
  for d = 1, DIMS do values[d] = type(g[d]) == 'string' and g[d] or '' end
  return values
end
local function byDims(o, field, n)
  local g = groupOf(field)
  for d = 1, DIMS do
    local key = KEYS[o + 1 + d]
    if tonumber(redis.call('ZINCRBY', key, n, g[d])) <= 0 then redis.call('ZREM', key, g[d]) end
  end
end
local function keepFor(o, ttl)
  if ttl <= 0 then return end
  for k = o + 1, o + 1 + DIMS do
    if redis.call('PTTL', KEYS[k]) == -1 then redis.call('PEXPIRE', KEYS[k], ttl) end
  end
end
local function index(o)
  if redis.call('EXISTS', KEYS[o + 1]) == 1 or redis.call('EXISTS', KEYS[o]) == 0 then return end
  for d = 1, DIMS do redis.call('DEL', KEYS[o + 1 + d]) end
  local h = redis.call('HGETALL', KEYS[o])
  local total = 0
  for i = 1, #h, 2 do
    local n = tonumber(h[i + 1])
    total = total + n
    byDims(o, h[i], n)
  end
  redis.call('SET', KEYS[o + 1], total)
  keepFor(o, redis.call('PTTL', KEYS[o]))
end
