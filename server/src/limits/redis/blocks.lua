-- Included after record.lua: keeps the blocked subjects in step with a record just judged, so each
-- relay can hold a copy of them (blocked-copy.ts) and answer the look before a request's body
-- without a round trip. Three keys beside the records, under the same "limits" hash tag:
--
--   <space>blocks        sorted set: "<table>:<16 hex>|<rule index>" scored by the epoch second the
--                        rule frees the subject (the record refuses while now < that second)
--   <space>blocks:seq    the number of changes made to that set
--   <space>blocks:log    sorted set: "<seq>|<table>:<16 hex>|<rule index>|<frees at, 0 once freed>"
--                        scored by seq, the newest BLOCKS_LOG_KEEP changes: what a relay reads
--                        every poll (only what is new since the seq it has)
--
-- Only records of the tables that block a client before its body (BLOCKING_TABLES in
-- limits/limit-store.ts) are kept: their specs end in ";b". Time alone only frees a subject, and
-- every reader compares the frees-at second with its own clock, so nothing is written when a block
-- runs out; entries past their second are pruned whenever the set changes.
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
