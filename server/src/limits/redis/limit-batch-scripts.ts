// Peeks and consumes, several in one script (limit-store.ts gathers those made in the same tick):
// the peeks one request makes at once (its client, its networks, their strikes) and the consumes
// made at once (a CAPTCHA's strikes charged up front, an accepted request's counts) cost one
// command, not one each; a lone one is a batch of one. The strikes of refused requests, held a
// moment by the relay (strike-buffer.ts), go as one STRIKE_EACH. Same arithmetic as
// limit-scripts.ts (its PRELUDE); every key is under the "limits" hash tag, so one Cluster slot.
import { lua } from '../../storage/redis/connection.ts';
import { PRELUDE } from './limit-scripts.ts';
import { SYNC_BLOCKS } from './blocked-scripts.ts';
import type { HeldStrikes } from './strike-buffer.ts';

/**
 * Strikes a relay holds and has not written yet ("<now>:<n>,…", limit-store.ts), counted into a
 * record one by one, each only while the rules have room (a subject at its strike limit records
 * nothing more): exactly what n consumes of it one after another would do. True when any counted.
 */
const ADD_STRIKES = `
local function add_strikes(rec, rules, pending)
  local added = false
  for at, n in string.gmatch(pending, '(%d+):(%d+)') do
    at = tonumber(at)
    for _ = 1, tonumber(n) do
      local refused = {}
      evaluate(rec, rules, at, refused, 1)
      if #refused > 0 then break end
      apply(rec, rules, at)
      added = true
    end
  end
  return added
end
`;

/**
 * KEYS: one record per peek. ARGV[3i-2], ARGV[3i-1], ARGV[3i]: that peek's now (epoch seconds), its
 * rules, and the strikes this relay holds for the record and has not written yet ("" when none:
 * its next STRIKE_EACH writes them), counted in as if written. Returns one list per peek, {rule,
 * retryAfter, …}: what its rules would refuse now. Read-only: runs on replicas and when Redis is
 * out of memory.
 */
export const PEEK_EACH = lua(`#!lua flags=no-writes
${PRELUDE}
${ADD_STRIKES}
local all = {}
for k = 1, #KEYS do
  local rec = decode(redis.call('GET', KEYS[k]))
  local _, rules = parse_rules(ARGV[3 * k - 1])
  if ARGV[3 * k] ~= '' then add_strikes(rec, rules, ARGV[3 * k]) end
  local out = {}
  evaluate(rec, rules, tonumber(ARGV[3 * k - 2]), out, 1)
  local flat = {}
  for i = 1, #out, 3 do
    flat[#flat + 1] = out[i + 1]
    flat[#flat + 1] = out[i + 2]
  end
  all[k] = flat
end
return all
`);

/**
 * The strikes a relay gathered (limit-store.ts), each record's summed: KEYS: one record each, then
 * the three keys of the blocked subjects (blocked-scripts.ts). ARGV[1]: how many rule specs follow
 * (the strike tables'), then those specs, then per record the index of its spec (1-based) and its
 * strikes, "<now>:<n>,…". A record whose rules have room for none of them is left as it is. Returns
 * the changes made to the blocked subjects (a record that reached its strike limit), as the log has
 * them. Without flags, Redis refuses the whole script when it is out of memory (those strikes are
 * lost, and counted so by the relay).
 */
export const STRIKE_EACH = lua(`#!lua
${PRELUDE}
${ADD_STRIKES}
${SYNC_BLOCKS}
local bk = { KEYS[#KEYS - 2], KEYS[#KEYS - 1], KEYS[#KEYS] }
local specs = tonumber(ARGV[1])
local changes, latest = {}, 0
for k = 1, #KEYS - 3 do
  local ttl, rules, blocking = parse_rules(ARGV[1 + tonumber(ARGV[specs + 2 * k])])
  local pending = ARGV[specs + 2 * k + 1]
  local rec = decode(redis.call('GET', KEYS[k]))
  if add_strikes(rec, rules, pending) then redis.call('SET', KEYS[k], encode(rec), 'EX', ttl) end
  if blocking then
    -- Judged at its latest strike's second, written or not (a block made before this relay kept
    -- blocks, or lost in a failover, is then known again).
    local last = 0
    for at in string.gmatch(pending, '(%d+):') do last = math.max(last, tonumber(at)) end
    latest = math.max(latest, last)
    sync_blocks(bk, KEYS[k], rec, rules, last, changes)
  end
end
prune_blocks(bk, latest, changes)
return changes
`);

/**
 * Consumes, each all or nothing on its own, one after another as if sent one by one. KEYS: every
 * consume's records in turn, then the three keys of the blocked subjects (blocked-scripts.ts).
 * ARGV: per consume "<now>", "<key count n>", then its n rules. Returns one reply per consume:
 * {0, check, rule, retryAfter, …} when refused (nothing of it written), or {1, added_1, …}
 * (added_i: 1 when check i's distinct member was added); then, last, the changes made to the
 * blocked subjects, as the log has them. Without flags, Redis refuses the whole script when it is
 * out of memory (the limits fail closed).
 */
export const CONSUME_EACH = lua(`#!lua
${PRELUDE}
${SYNC_BLOCKS}
local bk = { KEYS[#KEYS - 2], KEYS[#KEYS - 1], KEYS[#KEYS] }
-- A record consumed several times in one batch (a flood's strikes against one /24) is read and
-- decoded once, each consume seeing the ones before it, and written once at the end with its TTL.
local cached, written, order = {}, {}, {}
-- The blocking records judged, refused or written, with their rules and the latest second: each
-- one's blocks are synced at the end (a refused one too: a block made before this relay kept
-- blocks, or lost in a failover, is then known again).
local blocking_rules, blocking_at, blocking_order = {}, {}, {}
local function judged(key, rules, now)
  if blocking_rules[key] == nil then blocking_order[#blocking_order + 1] = key end
  blocking_rules[key] = rules
  blocking_at[key] = math.max(blocking_at[key] or 0, now)
end
local all = {}
local a, first = 1, 1
while a <= #ARGV do
  local now, n = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  local recs, rules, ttls, refused = {}, {}, {}, {}
  for i = 1, n do
    local key = KEYS[first + i - 1]
    local blocking
    ttls[i], rules[i], blocking = parse_rules(ARGV[a + 1 + i])
    if cached[key] == nil then cached[key] = decode(redis.call('GET', key)) end
    recs[i] = cached[key]
    evaluate(recs[i], rules[i], now, refused, i)
    if blocking then judged(key, rules[i], now) end
  end
  if #refused > 0 then
    table.insert(refused, 1, 0)
    all[#all + 1] = refused
  else
    local out = { 1 }
    for i = 1, n do
      local key = KEYS[first + i - 1]
      out[#out + 1] = apply(recs[i], rules[i], now)
      if written[key] == nil then order[#order + 1] = key end
      written[key] = math.max(written[key] or 0, ttls[i])
    end
    all[#all + 1] = out
  end
  a = a + 2 + n
  first = first + n
end
for _, key in ipairs(order) do
  redis.call('SET', key, encode(cached[key]), 'EX', written[key])
end
local changes, latest = {}, 0
for _, key in ipairs(blocking_order) do
  sync_blocks(bk, key, cached[key], blocking_rules[key], blocking_at[key], changes)
  latest = math.max(latest, blocking_at[key])
end
prune_blocks(bk, latest, changes)
all[#all + 1] = changes
return all
`);

/** STRIKE_EACH's arguments: the specs once, then each record's spec index and strikes. */
export function strikeArgs(records: HeldStrikes[]): string[] {
  const specs = new Map<string, number>();
  const tail: string[] = [];
  for (const r of records) {
    let index = specs.get(r.spec);
    if (index === undefined) {
      index = specs.size + 1;
      specs.set(r.spec, index);
    }
    tail.push(String(index), r.pending);
  }
  return [String(specs.size), ...specs.keys(), ...tail];
}
