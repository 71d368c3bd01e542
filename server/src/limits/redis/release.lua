#!lua
-- Frees one in-flight slot (acquire.lua); the last one deletes the key.
-- KEYS: KEYS[1], as acquire.lua.
-- ARGV: none.
-- Returns: 0 when there was no slot to free, else 1.
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local c, e = string.match(raw, '^(%d+):(%d+)$')
if (tonumber(c) or 0) <= 1 then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], string.format('%d:%s', tonumber(c) - 1, e), 'KEEPTTL')
end
return 1
