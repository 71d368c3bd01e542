-- Adds a note (an erasure notice) to a name's notes, dropping the expired and the oldest beyond max.
-- KEYS: KEYS[1], the notes ("<keyspace>notes:<name>", a sorted set note → when added).
-- ARGV: note, now, ttlMs, max.
-- Returns: 1.
local now, ttl = tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl)
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -tonumber(ARGV[4]) - 1)
redis.call('PEXPIRE', KEYS[1], ttl)
return 1
