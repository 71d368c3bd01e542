-- Cancels a job the store decided may be cancelled (job-store.ts cancelVerdict, on the fields it
-- read), unless it changed since: it must still wait in the stage read, with no relay holding it.
-- KEYS: 1 ready, 2 pending, 3 numbers (every key of the group "jobs"; the scripts name them from ARGV[1])
-- ARGV: 1 keyspace, 2 callbackId, 3 the stage read, 4 now, 5 retentionMs, 6 forget ('1': drop the number)
-- Returns: 1 when cancelled, 0 when it changed since it was read (nothing written)
--#include jobs.lua
local id, stage, now = ARGV[2], ARGV[3], tonumber(ARGV[4])
local k = jobKey(id)
local st, sg = unpack(redis.call('HMGET', k, 'state', 'stage'))
if st ~= 'pending' or sg ~= stage or leased(k, now) then return 0 end
finish(id, k, 'cancelled', 'cancelled', false, now, tonumber(ARGV[5]), ARGV[6])
return 1
