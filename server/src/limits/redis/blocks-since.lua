#!lua flags=no-writes
-- What a relay's copy of the blocked subjects (blocked-copy.ts) reads every poll. Read-only: runs
-- on replicas too.
-- KEYS: blocks, blocks:seq, blocks:log (blocks.lua).
-- ARGV: ARGV[1], the seq the relay's copy has (-1: none); ARGV[2]: the most subjects a copy holds.
-- Returns: {seq} when nothing changed; {seq, {entry, …}, 0}: the log's entries after it;
--   {seq, {member, frees-at, …}, 1}: the whole set, when the copy has none, the log no longer
--   reaches back to it, or seq went back (a replica promoted without the last changes); or
--   {seq, {}, 2} when the whole set is over the most a copy holds.
local seq = tonumber(redis.call('GET', KEYS[2]) or 0)
local last = tonumber(ARGV[1])
if last == seq then return { seq } end
if last >= 0 and last < seq then
  local oldest = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
  if oldest[2] and tonumber(oldest[2]) <= last + 1 then
    return { seq, redis.call('ZRANGEBYSCORE', KEYS[3], '(' .. last, '+inf'), 0 }
  end
end
if redis.call('ZCARD', KEYS[1]) > tonumber(ARGV[2]) then return { seq, {}, 2 } end
return { seq, redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES'), 1 }
