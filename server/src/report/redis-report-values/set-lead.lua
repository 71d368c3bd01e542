-- Rewrites a lead's fields (an erasure), only while the lead still exists: HSET on one that expired
-- meanwhile would make a key that never expires.
-- KEYS: KEYS[1], the lead ("<keyspace>lead:<callbackId>").
-- ARGV: field, value, ….
-- Returns: 1 when written, 0 when the lead is gone.
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
