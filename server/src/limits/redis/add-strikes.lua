-- Included after record.lua: strikes a relay holds and has not written yet ("<now>:<n>,…",
-- strike-buffer.ts), counted into a record one by one, each only while the rules have room (a
-- subject at its strike limit records nothing more): exactly what n consumes of it one after
-- another would do. True when any counted.
local function add_strikes(rec, rules, pending)
  local added = false
  for at, n in string.gmatch(pending, '(%d+):(%d+)') do
    at = tonumber(at)
    for _ = 1, tonumber(n) do
      local refused = {}
      evaluate(rec, rules, at, refused, 1)
      if #refused > 0 then break end
      apply(rec, rules, at)
      added = true
    end
  end
  return added
end
