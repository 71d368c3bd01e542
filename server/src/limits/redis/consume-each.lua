#!lua
-- Consumes, each all or nothing on its own, one after another as if sent one by one (limit-store.ts
-- gathers those of the same tick). Without flags, Redis refuses the whole script when it is out of
-- memory (the limits fail closed).
-- KEYS: every consume's records in turn, then blocks, blocks:seq, blocks:log (blocks.lua).
-- ARGV: per consume "<now>", "<key count n>", then its n rules.
-- Returns: one reply per consume, {0, check, rule, retryAfter, …} when refused (nothing of it
--   written) or {1, added_1, …} (added_i: 1 when check i's distinct member was added); then, last,
--   the changes made to the blocked subjects, as the log has them.
--#include record.lua
--#include blocks.lua
local bk = { KEYS[#KEYS - 2], KEYS[#KEYS - 1], KEYS[#KEYS] }
-- A record consumed several times in one batch (a flood's strikes against one /24) is read and
-- decoded once, each consume seeing the ones before it, and written once at the end with its TTL.
local cached, written, order = {}, {}, {}
-- The blocking records judged, refused or written, with their rules and the latest second: each
-- one's blocks are synced at the end (a refused one too: a block made before this relay kept
-- blocks, or lost in a failover, is then known again).
local blocking_rules, blocking_at, blocking_order = {}, {}, {}
local function judged(key, rules, now)
  if blocking_rules[key] == nil then blocking_order[#blocking_order + 1] = key end
  blocking_rules[key] = rules
  blocking_at[key] = math.max(blocking_at[key] or 0, now)
end
local all = {}
local a, first = 1, 1
while a <= #ARGV do
  local now, n = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  local recs, rules, ttls, refused = {}, {}, {}, {}
  for i = 1, n do
    local key = KEYS[first + i - 1]
    local blocking
    ttls[i], rules[i], blocking = parse_rules(ARGV[a + 1 + i])
    if cached[key] == nil then cached[key] = decode(redis.call('GET', key)) end
    recs[i] = cached[key]
    evaluate(recs[i], rules[i], now, refused, i)
    if blocking then judged(key, rules[i], now) end
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
local changes, latest = {}, 0
for _, key in ipairs(blocking_order) do
  sync_blocks(bk, key, cached[key], blocking_rules[key], blocking_at[key], changes)
  latest = math.max(latest, blocking_at[key])
end
prune_blocks(bk, latest, changes)
all[#all + 1] = changes
return all
