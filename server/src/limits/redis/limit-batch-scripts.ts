// Peeks and consumes, several in one script (limit-store.ts gathers those made in the same tick):
// the peeks one request makes at once (its client, its networks, their strikes) and the consumes
// made at once (a refused request's strikes, each on its own) cost one command, not one each; a
// lone one is a batch of one. Same arithmetic as limit-scripts.ts (its PRELUDE); every key is
// under the "limits" hash tag, so one Cluster slot.
import { lua } from '../../storage/redis/connection.ts';
import { PRELUDE } from './limit-scripts.ts';

/**
 * KEYS: one record per peek. ARGV[2i-1], ARGV[2i]: that peek's now (epoch seconds) and rules.
 * Returns one list per peek, {rule, retryAfter, …}: what its rules would refuse now. Read-only: runs
 * on replicas and when Redis is out of memory.
 */
export const PEEK_EACH = lua(`#!lua flags=no-writes
${PRELUDE}
local all = {}
for k = 1, #KEYS do
  local rec = decode(redis.call('GET', KEYS[k]))
  local _, rules = parse_rules(ARGV[2 * k])
  local out = {}
  evaluate(rec, rules, tonumber(ARGV[2 * k - 1]), out, 1)
  local flat = {}
  for i = 1, #out, 3 do
    flat[#flat + 1] = out[i + 1]
    flat[#flat + 1] = out[i + 2]
  end
  all[k] = flat
end
return all
`);

/**
 * Consumes, each all or nothing on its own, one after another as if sent one by one. KEYS: every
 * consume's records in turn. ARGV: per consume "<now>", "<key count n>", then its n rules.
 * Returns one reply per consume: {0, check, rule, retryAfter, …} when refused (nothing of it
 * written), or {1, added_1, …} (added_i: 1 when check i's distinct member was added).
 * Without flags, Redis refuses the whole script when it is out of memory (the limits fail closed).
 */
export const CONSUME_EACH = lua(`#!lua
${PRELUDE}
-- A record consumed several times in one batch (a flood's strikes against one /24) is read and
-- decoded once, each consume seeing the ones before it, and written once at the end with its TTL.
local cached, written, order = {}, {}, {}
local all = {}
local a, first = 1, 1
while a <= #ARGV do
  local now, n = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  local recs, rules, ttls, refused = {}, {}, {}, {}
  for i = 1, n do
    local key = KEYS[first + i - 1]
    ttls[i], rules[i] = parse_rules(ARGV[a + 1 + i])
    if cached[key] == nil then cached[key] = decode(redis.call('GET', key)) end
    recs[i] = cached[key]
    evaluate(recs[i], rules[i], now, refused, i)
  end
  if #refused > 0 then
    table.insert(refused, 1, 0)
    all[#all + 1] = refused
  else
    local out = { 1 }
    for i = 1, n do
      local key = KEYS[first + i - 1]
      out[#out + 1] = apply(recs[i], rules[i], now)
      if written[key] == nil then order[#order + 1] = key end
      written[key] = math.max(written[key] or 0, ttls[i])
    end
    all[#all + 1] = out
  end
  a = a + 2 + n
  first = first + n
end
for _, key in ipairs(order) do
  redis.call('SET', key, encode(cached[key]), 'EX', written[key])
end
return all
`);
