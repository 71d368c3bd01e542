// A day's opens in Redis are one hash, field = the group as JSON, value = its opens. The report asks
// for a day's first groups by one dimension, and reading a flooded day's 5,000 fields for that took
// 5-12 ms of Redis's time a day. So beside the hash each day keeps an index, written in the same
// script as the hash: per dimension a sorted set value → opens, and the day's total. It is only ever
// a projection of the hash, so a day without one (counted before the index existed, or moved in by
// the hash alone) is rebuilt from the hash by the first script that needs it.
import { REPORT_DIMENSIONS } from './report-store.ts';

/** A day's opens hash, then its index: its total, then one sorted set per dimension (REPORT_DIMENSIONS' order). */
export const dayKeys = (space: string, day: string): string[] => [
  `${space}opens:${day}`,
  `${space}opens:${day}:total`,
  ...REPORT_DIMENSIONS.map((d) => `${space}opens:${day}:by:${d}`),
];

/** How many keys dayKeys names. */
export const DAY_KEYS = 2 + REPORT_DIMENSIONS.length;

/**
 * Lua functions over a day's keys as dayKeys names them, starting at KEYS[o]:
 * index(o) builds the index from the hash when it has none; byDims(o, field, n) adds n (may be
 * negative) to the field's value in every dimension's set; keepFor(o, ttl) gives every index key
 * without an expiry the one given (ms). Values of a field that is not a JSON array count as ''.
 */
export const OPEN_INDEX_LUA = `
local DIMS = ${REPORT_DIMENSIONS.length}
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
`;
