#!lua
-- Takes one of a number's in-flight slots (calls being placed right now). The key expires with its
-- last slot (PX), so a lost release frees itself.
-- KEYS: KEYS[1], "<count>:<expiresAtMs>".
-- ARGV: max, ttlMs, nowMs.
-- Returns: 1 when a slot was taken, 0 when all max are.
local max, ttl, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local count, expires = 0, 0
local raw = redis.call('GET', KEYS[1])
if raw then
  local c, e = string.match(raw, '^(%d+):(%d+)$')
  count, expires = tonumber(c) or 0, tonumber(e) or 0
end
if expires > now and count >= max then return 0 end
if expires > now then count = count + 1 else count = 1 end
redis.call('SET', KEYS[1], string.format('%d:%d', count, now + ttl), 'PX', ttl)
return 1
