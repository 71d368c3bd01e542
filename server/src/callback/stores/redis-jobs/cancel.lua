-- Cancels a pending job in a cancellable stage that nobody holds: the visitor with its token's hash,
-- the owner with ''.
-- KEYS: 1 ready, 2 pending, 3 numbers (every key of the group "jobs"; the scripts name them from ARGV[1])
-- ARGV: 1 keyspace, 2 callbackId, 3 cancelHash ('' for the owner), 4 now, 5 retentionMs, 6… the cancellable stages
-- Returns: 'cancelled', 'not_found', 'wrong_token', 'not_pending', 'placed' (not cancellable) or 'in_progress' (leased)
--#include jobs.lua
local id, hash, now = ARGV[2], ARGV[3], tonumber(ARGV[4])
local k = jobKey(id)
local stored, state, stage = unpack(redis.call('HMGET', k, 'cancel', 'state', 'stage'))
if not state then return 'not_found' end
if hash ~= '' and (not stored or stored == '' or stored ~= hash) then return 'wrong_token' end
if state ~= 'pending' then return 'not_pending' end
local allowed = false
for i = 6, #ARGV do if ARGV[i] == stage then allowed = true end end
if not allowed then return 'placed' end
if leased(k, now) then return 'in_progress' end
finish(id, k, 'cancelled', 'cancelled', false, now, tonumber(ARGV[5]))
return 'cancelled'
