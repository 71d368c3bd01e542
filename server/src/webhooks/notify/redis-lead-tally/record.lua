-- Writes a lead's standing for the daily digest and forgets those past the week, a hundred at a time.
-- KEYS: leads (sorted set callbackId → when the visitor asked), lead (hash callbackId → JSON).
-- ARGV: id, createdAt, json, cutoff.
-- Returns: 1.
local leads, lead = KEYS[1], KEYS[2]
redis.call('ZADD', leads, 'NX', tonumber(ARGV[2]), ARGV[1])
redis.call('HSET', lead, ARGV[1], ARGV[3])
local old = redis.call('ZRANGE', leads, '-inf', '(' .. ARGV[4], 'BYSCORE', 'LIMIT', 0, 100)
if #old > 0 then
  redis.call('ZREM', leads, unpack(old))
  redis.call('HDEL', lead, unpack(old))
end
return 1
