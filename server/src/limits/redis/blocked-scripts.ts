// The blocked subjects in Redis, kept in step by the limit store's write scripts so that each relay
// can hold a copy of them (blocked-copy.ts) and answer the look before a request's body
// (Limiter.blockedClient) without a round trip. Three keys beside the records, under the same
// "limits" hash tag (one Cluster slot, so every script that writes a record may write them too):
//
//   <space>blocks        sorted set: "<table>:<16 hex>|<rule index>" scored by the epoch second the
//                        rule frees the subject (the record refuses while now < that second)
//   <space>blocks:seq    the number of changes made to that set
//   <space>blocks:log    sorted set: "<seq>|<table>:<16 hex>|<rule index>|<frees at, 0 once freed>"
//                        scored by seq, the newest BLOCKS_LOG_KEEP changes: what a relay reads
//                        every poll (only what is new since the seq it has)
//
// Only records of the tables that block a client before its body (limit-store.ts, BLOCKING_TABLES)
// are kept: their specs end in ";b". A record's state changes only when it is written (a consume, a
// strike, a refund): time alone only frees it, and every reader compares the frees-at second with
// its own clock, so nothing needs writing when a block runs out. Entries past their second are
// pruned whenever the set changes.
import { lua } from '../../storage/redis/connection.ts';

/** Lua, after the PRELUDE (limit-scripts.ts): syncs one record's blocks after it was written. */
export const SYNC_BLOCKS = `
local BLOCKS_LOG_KEEP = 4096
-- bk: the three keys above. Appends every change to changes (the script's reply, for this relay's copy).
local function sync_blocks(bk, key, rec, rules, now, changes)
  local name = string.match(key, '([%w_]+:%x+)$')
  local refused = {}
  evaluate(rec, rules, now, refused, 1)
  local frees = {}
  for i = 1, #refused, 3 do frees[refused[i + 1]] = now + refused[i + 2] end
  for ri = 1, #rules do
    local member = name .. '|' .. ri
    local want = frees[ri]
    local had = redis.call('ZSCORE', bk[1], member)
    if had then had = tonumber(had) else had = nil end
    if want ~= had then
      if want then
        redis.call('ZADD', bk[1], want, member)
      else
        redis.call('ZREM', bk[1], member)
      end
      local seq = redis.call('INCR', bk[2])
      local entry = string.format('%d|%s|%d', seq, member, want or 0)
      redis.call('ZADD', bk[3], seq, entry)
      changes[#changes + 1] = entry
    end
  end
end
-- Once per script that changed anything: blocks past their second, and the log's oldest entries.
local function prune_blocks(bk, now, changes)
  if #changes == 0 then return end
  redis.call('ZREMRANGEBYSCORE', bk[1], '-inf', now)
  redis.call('ZREMRANGEBYRANK', bk[3], 0, -(BLOCKS_LOG_KEEP + 1))
end
`;

/**
 * KEYS: blocks, blocks:seq, blocks:log. ARGV[1]: the seq the relay's copy has (-1: none); ARGV[2]:
 * the most subjects a copy holds. Returns {seq} when nothing changed; {seq, {entry, …}, 0}: the
 * log's entries after it; {seq, {member, frees-at, …}, 1}: the whole set, when the copy has none,
 * the log no longer reaches back to it, or seq went back (a replica promoted without the last
 * changes); or {seq, {}, 2} when the whole set is over the most a copy holds. Read-only: runs on
 * replicas too.
 */
export const BLOCKS_SINCE = lua(`#!lua flags=no-writes
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
`);
