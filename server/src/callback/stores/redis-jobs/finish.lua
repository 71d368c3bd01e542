-- Ends a job its owner holds in stage `from`: a final stage, out of every index; the number, the
-- visitor's address and user agent are dropped when told to and the hash expires after the retention.
-- KEYS: 1 ready, 2 pending, 3 numbers (every key of the group "jobs"; the scripts name them from ARGV[1])
-- ARGV: 1 keyspace, 2 callbackId, 3 owner, 4 from, 5 stage, 6 state, 7 outcome, 8 now, 9 retentionMs, 10 forget ('1': drop the number)
-- Returns: 1, or 0 (nothing written) unless the owner holds it in stage `from`
--#include jobs.lua
local id, owner, from = ARGV[2], ARGV[3], ARGV[4]
local k = jobKey(id)
if not held(k, owner, from) then return 0 end
finish(id, k, ARGV[5], ARGV[6], ARGV[7], tonumber(ARGV[8]), tonumber(ARGV[9]), ARGV[10])
return 1
