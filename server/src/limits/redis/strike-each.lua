#!lua
-- The strikes a relay gathered (strike-buffer.ts), each record's summed. A record whose rules have
-- room for none of them is left as it is. Without flags, Redis refuses the whole script when it is
-- out of memory (those strikes are lost, and counted so by the relay).
-- KEYS: one record each, then blocks, blocks:seq, blocks:log (blocks.lua).
-- ARGV: ARGV[1], how many rule specs follow (the strike tables'), then those specs, then per record the
--   index of its spec (1-based) and its strikes, "<now>:<n>,…" (strikeArgs in limit-scripts.ts).
-- Returns: the changes made to the blocked subjects (a record that reached its strike limit), as the log has them.
--#include record.lua
--#include add-strikes.lua
--#include blocks.lua
local bk = { KEYS[#KEYS - 2], KEYS[#KEYS - 1], KEYS[#KEYS] }
local specs = tonumber(ARGV[1])
local changes, latest = {}, 0
for k = 1, #KEYS - 3 do
  local ttl, rules, blocking = parse_rules(ARGV[1 + tonumber(ARGV[specs + 2 * k])])
  local pending = ARGV[specs + 2 * k + 1]
  local rec = decode(redis.call('GET', KEYS[k]))
  if add_strikes(rec, rules, pending) then redis.call('SET', KEYS[k], encode(rec), 'EX', ttl) end
  if blocking then
    -- Judged at its latest strike's second, written or not (a block made before this relay kept
    -- blocks, or lost in a failover, is then known again).
    local last = 0
    for at in string.gmatch(pending, '(%d+):') do last = math.max(last, tonumber(at)) end
    latest = math.max(latest, last)
    sync_blocks(bk, KEYS[k], rec, rules, last, changes)
  end
end
prune_blocks(bk, latest, changes)
return changes
