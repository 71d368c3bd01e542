-- Keeps the earliest moment asked about (the call-log window all relays' polls must cover).
-- KEYS: KEYS[1], the mark ("<keyspace>mark:<name>").
-- ARGV: the moment (ms), its TTL (ms).
-- Returns: the earliest moment now kept (ARGV[1] when it was set).
local v = redis.call('GET', KEYS[1])
local at = tonumber(ARGV[1])
if not v or tonumber(v) > at then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', tonumber(ARGV[2]))
  return ARGV[1]
end
return v
