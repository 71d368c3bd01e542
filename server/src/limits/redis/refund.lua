#!lua
-- Takes back what a consume recorded (its receipt, receipt.ts). A record that has expired meanwhile
-- has nothing left to give back; the TTL is kept.
-- KEYS: the records the receipt touched, then blocks, blocks:seq, blocks:log (blocks.lua).
-- ARGV: one entry each, "<key index>,l,<at>" (a log time), "<key index>,c,<windowSec>,<windowIndex>"
--   (a counter place), "<key index>,d,<member>"; and for a record of a blocking table
--   "<key index>,b,<at>,<spec>": its rules, to judge it again at the consume's second.
-- Returns: the changes made to the blocked subjects, as the log has them.
--#include record.lua
--#include blocks.lua
local bk = { KEYS[#KEYS - 2], KEYS[#KEYS - 1], KEYS[#KEYS] }
local recs, blocking, latest = {}, {}, 0
for _, e in ipairs(ARGV) do
  local bi, bat, bspec = string.match(e, '^(%d+),b,(%d+),(.*)$')
  if bi then
    local _, rules = parse_rules(bspec)
    blocking[tonumber(bi)] = { rules, tonumber(bat) }
    latest = math.max(latest, tonumber(bat))
  else
    local ki, kind, a, b = string.match(e, '^(%d+),(%a),(%x+),?(%d*)$')
    ki = tonumber(ki)
    if recs[ki] == nil then
      local raw = redis.call('GET', KEYS[ki])
      recs[ki] = raw and decode(raw) or false
    end
    local rec = recs[ki]
    if rec and kind == 'l' then
      local at = tonumber(a)
      for i, t in ipairs(rec.log) do
        if t == at then
          table.remove(rec.log, i)
          break
        end
      end
    elseif rec and kind == 'c' then
      local s, idx = rec.ctr[tonumber(a)], tonumber(b)
      if s and s[1] == idx then
        s[3] = math.max(0, s[3] - 1)
      elseif s and s[1] == idx + 1 then
        s[2] = math.max(0, s[2] - 1)
      end
    elseif rec then
      local kept = {}
      for _, m in ipairs(rec.members) do
        if m ~= a then kept[#kept + 1] = m end
      end
      rec.members = kept
    end
  end
end
local changes = {}
for ki, rec in pairs(recs) do
  if rec then
    redis.call('SET', KEYS[ki], encode(rec), 'KEEPTTL')
    if blocking[ki] then sync_blocks(bk, KEYS[ki], rec, blocking[ki][1], blocking[ki][2], changes) end
  end
end
prune_blocks(bk, latest, changes)
return changes
