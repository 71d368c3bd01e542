-- Deletes a begun request's entry that has no answer (the request failed before it had one).
-- KEYS: entry, all, done.
-- ARGV: created, id.
-- Returns: 1 when deleted, 0 when the entry was replaced or answered.
if redis.call('HGET', KEYS[1], 'c') ~= ARGV[1] or redis.call('HEXISTS', KEYS[1], 'r') == 1 then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[2])
return 1
