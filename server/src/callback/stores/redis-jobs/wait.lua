-- Moves a job its owner holds in stage `from` to a waiting stage due at dueAt, releasing the lease;
-- a booking ('scheduled') takes its number's place, any other stage gives it up.
-- KEYS: 1 ready, 2 pending, 3 numbers (every key of the group "jobs"; the scripts name them from ARGV[1])
-- ARGV: 1 keyspace, 2 callbackId, 3 owner, 4 from, 5 stage, 6 dueAt, 7 now, 8… progress fields (name, value pairs; '' clears one)
-- Returns: 1, or 0 (nothing written) unless the owner holds it in `from` and the number is free for a booking
--#include jobs.lua
local id, owner, from, stage, due, now = ARGV[2], ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])
local k = jobKey(id)
if not held(k, owner, from) then return 0 end
local nh = redis.call('HGET', k, 'numberHash')
if stage == 'scheduled' then
  local holder = redis.call('HGET', numbers, nh)
  if holder and holder ~= id then return 0 end
  redis.call('HSET', numbers, nh, id)
elseif redis.call('HGET', numbers, nh) == id then
  redis.call('HDEL', numbers, nh)
end
redis.call('HSET', k, 'stage', stage, 'due', due, 'owner', '', 'lease', '', 'updated', now)
for i = 8, #ARGV, 2 do
  if ARGV[i + 1] == '' then redis.call('HDEL', k, ARGV[i]) else redis.call('HSET', k, ARGV[i], ARGV[i + 1]) end
end
redis.call('ZADD', ready, due, id)
redis.call('ZADD', pending, due, id)
return 1
