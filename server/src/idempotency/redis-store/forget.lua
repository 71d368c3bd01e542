-- Deletes a finished entry only (forgetAnswers: a number's erasure).
-- KEYS: entry, all, done.
-- ARGV: id.
-- Returns: 1 when deleted, 0 when the entry is missing or still running.
if redis.call('HEXISTS', KEYS[1], 'r') == 0 then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1
