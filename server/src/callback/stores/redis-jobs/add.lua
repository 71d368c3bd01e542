-- Adds a new job, pending and due at dueAt; a booking ('scheduled') takes its number's place. A job
-- over at once (a call now refused, or placed with nothing to follow) is in no index and expires.
-- KEYS: 1 ready, 2 pending, 3 numbers (every key of the group "jobs"; the scripts name them from ARGV[1])
-- ARGV: 1 keyspace, 2 callbackId, 3 stage, 4 dueAt, 5 numberHash, 6 expiresInMs (0: pending), 7… the job's fields (name, value pairs)
-- Returns: 'ok', 'duplicate' (the id is taken) or 'number' (the number has a pending booking)
--#include jobs.lua
local id, stage, due, nh, expires = ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6])
local k = jobKey(id)
if redis.call('EXISTS', k) == 1 then return 'duplicate' end
if stage == 'scheduled' then
  if redis.call('HSETNX', numbers, nh, id) == 0 then return 'number' end
end
local fields = {}
for i = 7, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', k, unpack(fields))
if expires > 0 then
  redis.call('PEXPIRE', k, expires)
  return 'ok'
end
redis.call('ZADD', ready, due, id)
redis.call('ZADD', pending, due, id)
return 'ok'
