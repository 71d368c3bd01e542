-- Writes one Idempotency-Key entry as moved from another store (npm run store -- move), replacing
-- the target's entry of the same id, with the store's indexes: every live entry by expiry, answered
-- ones by age; the entry expires at its own expiry, the indexes a minute after their newest entry.
-- KEYS: the entry, all, done.
-- ARGV: id, keyed fingerprint, created (ms), expires (ms), the answer ('' while running), the indexes' slack (ms).
-- Returns: 'replaced' when the target held the id, 'added' when not.
local existed = redis.call('EXISTS', KEYS[1]) == 1
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('HSET', KEYS[1], 'f', ARGV[2], 'c', ARGV[3], 'e', ARGV[4])
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[1], 'r', ARGV[5])
  redis.call('ZADD', KEYS[3], tonumber(ARGV[3]), ARGV[1])
end
redis.call('PEXPIREAT', KEYS[1], tonumber(ARGV[4]))
redis.call('ZADD', KEYS[2], tonumber(ARGV[4]), ARGV[1])
local keep = tonumber(ARGV[4]) + tonumber(ARGV[6])
for _, index in ipairs({KEYS[2], KEYS[3]}) do
  -- -2: no such set (nothing answered yet); -1: made just now, without an expiry yet.
  local at = redis.call('PEXPIRETIME', index)
  if at ~= -2 and at < keep then redis.call('PEXPIREAT', index, keep) end
end
if existed then return 'replaced' end
return 'added'
