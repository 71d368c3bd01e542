-- Stores a begun request's answer, unless the entry was since replaced or already answered.
-- KEYS: entry, done.
-- ARGV: created, replyJson, id.
-- Returns: 1 when stored, 0 when not.
if redis.call('HGET', KEYS[1], 'c') ~= ARGV[1] or redis.call('HEXISTS', KEYS[1], 'r') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'r', ARGV[2])
redis.call('ZADD', KEYS[2], tonumber(ARGV[1]), ARGV[3])
return 1
