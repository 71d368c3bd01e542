#!lua flags=no-writes
-- The peeks made in the same tick (limit-store.ts gathers them): what each record's rules would
-- refuse now. Read-only: runs on replicas and when Redis is out of memory.
-- KEYS: one record per peek.
-- ARGV: per peek i, ARGV[3i-2], ARGV[3i-1], ARGV[3i]: that peek's now (epoch seconds), its rules, and the strikes
--   this relay holds for the record and has not written yet ("" when none: its next strike-each.lua
--   writes them), counted in as if written.
-- Returns: one list per peek, {rule, retryAfter, …}.
--#include record.lua
--#include add-strikes.lua
local all = {}
for k = 1, #KEYS do
  local rec = decode(redis.call('GET', KEYS[k]))
  local _, rules = parse_rules(ARGV[3 * k - 1])
  if ARGV[3 * k] ~= '' then add_strikes(rec, rules, ARGV[3 * k]) end
  local out = {}
  evaluate(rec, rules, tonumber(ARGV[3 * k - 2]), out, 1)
  local flat = {}
  for i = 1, #out, 3 do
    flat[#flat + 1] = out[i + 1]
    flat[#flat + 1] = out[i + 2]
  end
  all[k] = flat
end
return all
