-- Settles an attempt its owner holds: delivered or given up (the body, which holds the full number,
-- is dropped and the entry expires after the retention), or due again at nextAttemptAt.
-- KEYS: 1 the webhook's due set (the entry's own due set is named by its field `dueset`)
-- ARGV: 1 keyspace, 2 eventId, 3 owner, 4 action ('delivered' | 'retry' | 'gave_up'), 5 now, 6 nextAttemptAt, 7 error, 8 retentionMs
-- Returns: 1, or 0 (nothing written) unless the owner holds the entry
--#include outbox.lua
local id, owner, action, now = ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5])
local k = evKey(id)
if not held(k, owner) then return 0 end
due = space .. (redis.call('HGET', k, 'dueset') or 'due')
redis.call('HSET', k, 'owner', '', 'lease', '')
if action == 'retry' then
  redis.call('HSET', k, 'next', ARGV[6], 'error', ARGV[7])
  redis.call('ZADD', due, tonumber(ARGV[6]), id)
  return 1
end
redis.call('HSET', k, 'state', action, 'finished', now)
if action == 'gave_up' then redis.call('HSET', k, 'error', ARGV[7]) end
redis.call('HDEL', k, 'body')
redis.call('ZREM', due, id)
redis.call('PEXPIRE', k, tonumber(ARGV[8]))
return 1
