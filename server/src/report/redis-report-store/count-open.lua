-- Counts one dialog open in one step (several relays count at once): ReportStore.countOpen. Under its
-- group when the day counts it already or it had a recent lead; otherwise 'add' starts the group
-- while the day holds fewer than the cap (else "(other)"), 'other' counts "(other)", 'ask' nothing.
-- The day's index of its opens is kept in the same step.
-- KEYS: the day's keys (dayKeys: 1 the opens, 2 their total, 3-7 by dimension), 8 the lead groups.
-- ARGV: the group, (other), the oldest lead that still counts, 'add' | 'other' | 'ask', the day's cap,
--   the day's expiry.
-- Returns: 1 when counted, 0 when not ('ask').
--#include ../redis-open-index.lua
index(1)
local field = ARGV[1]
if redis.call('HEXISTS', KEYS[1], field) == 0 then
  local lead = redis.call('ZSCORE', KEYS[8], field)
  if not lead or tonumber(lead) < tonumber(ARGV[3]) then
    if ARGV[4] == 'ask' then return 0 end
    if ARGV[4] == 'other' or redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[5]) then field = ARGV[2] end
  end
end
redis.call('HINCRBY', KEYS[1], field, 1)
byDims(1, field, 1)
redis.call('INCRBY', KEYS[2], 1)
for i = 1, 7 do redis.call('PEXPIRE', KEYS[i], ARGV[6]) end
return 1
