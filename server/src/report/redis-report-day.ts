// The report's read of one day in Redis (ReportStore's dayTop and dayGroups): one Lua script groups
// the day's opens hash and leads inside Redis and answers at most k groups as JSON, so a day of a
// flood (5,000 open groups) never crosses the network, only its first k. It touches the day's keys
// only, all in the group "report" (one hash tag, one Cluster slot): the opens hash and the leads
// index named in KEYS, and the index's lead hashes, in the same slot. A day is a few milliseconds
// of Redis's time; the report asks for one day at a time.
import type { RedisConnection } from '../storage/redis/connection.ts';
import { lua } from '../storage/redis/connection.ts';
import { REPORT_DIMENSIONS, type DayQuery, type DayTop } from './report-store.ts';
import type { KeyTally, Tally } from './tally.ts';

// ARGV: space, the dimension's place in an open's field (1-5) and its name in a lead's hash,
// fromMs, toMs, talkSeconds, k, then (dayGroups) the keys wanted. An open's field is its group as a
// JSON array; one without escapes up to the value wanted is read with a pattern, any other by cjson.
const DAY = lua(String.raw`
local space, dim, field = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local from, to, talk, k = ARGV[4], ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])
local only = nil
if #ARGV > 7 then
  only = {}
  for i = 8, #ARGV do only[ARGV[i]] = true end
end
local function tally() return { requested = 0, placed = 0, answered = 0, talked = 0, missed = 0, failed = 0, noConsent = 0, answers = {} } end
-- Opens per key as plain numbers, a tally only for keys with leads: a flood's 5,000 groups cost no tables.
local opened, leads, groups, total, totalOpened = {}, {}, 0, tally(), 0
local function seen(key)
  if opened[key] == nil then opened[key] = 0; groups = groups + 1 end
end
local PLAIN = '^%[' .. string.rep('"[^"\\]*",', dim - 1) .. '"([^"\\]*)"'
local h = redis.call('HGETALL', KEYS[1])
for i = 1, #h, 2 do
  local f = h[i]
  local v = string.match(f, PLAIN)
  if v == nil then v = tostring(cjson.decode(f)[dim] or '') end
  local n = tonumber(h[i + 1])
  totalOpened = totalOpened + n
  if only == nil or only[v] then seen(v); opened[v] = opened[v] + n end
end
local function addLead(g, l)
  if l[3] ~= 'owner' then g.requested = g.requested + 1 end
  -- The marks of WITHOUT_CONSENT (tracking-consent/snapshot.ts).
  if l[3] ~= 'owner' and (l[8] == 'denied' or l[8] == 'unknown') then g.noConsent = g.noConsent + 1 end
  if l[4] == '1' then g.placed = g.placed + 1 end
  if l[5] == 'answered' then
    g.answered = g.answered + 1
    if (tonumber(l[7]) or 0) >= talk then g.talked = g.talked + 1 end
    if l[6] and l[6] ~= '' then g.answers[l[6]] = (g.answers[l[6]] or 0) + 1 end
  elseif l[5] == 'missed' then g.missed = g.missed + 1
  elseif l[5] == 'failed' then g.failed = g.failed + 1 end
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], from, '(' .. to)) do
  local l = redis.call('HMGET', space .. 'lead:' .. id, 'at', field, 'requestedAs', 'placed', 'outcome', 'answerSeconds', 'talkSeconds', 'consent')
  if l[1] then
    local v = l[2] or ''
    addLead(total, l)
    if only == nil or only[v] then
      seen(v)
      if leads[v] == nil then leads[v] = tally() end
      addLead(leads[v], l)
    end
  end
end
local NONE = tally()
local function out(key, n, g)
  local answers = {}
  for s, c in pairs(g.answers) do answers[#answers + 1] = { tonumber(s), c } end
  return { key = key, opened = n, requested = g.requested, placed = g.placed, answered = g.answered, talked = g.talked, missed = g.missed, failed = g.failed, noConsent = g.noConsent, answers = answers }
end
local function group(key) return out(key, opened[key], leads[key] or NONE) end
local first = {}
if only then
  for key in pairs(opened) do first[#first + 1] = group(key) end
  return cjson.encode({ top = first })
end
-- The first k by leads asked for, then opens, then key, less any that tie the first left out
-- (lead-report.ts). Groups with leads are sorted (a handful). For the others only how many have
-- each number of opens is counted: the first number whose groups do not all fit is the bar, and
-- only the groups above it (k at most) are collected and sorted, so a flood is never sorted.
local withLeads, many, values = {}, {}, {}
for key, n in pairs(opened) do
  if leads[key] and leads[key].requested > 0 then withLeads[#withLeads + 1] = key
  else
    if many[n] == nil then many[n] = 0; values[#values + 1] = n end
    many[n] = many[n] + 1
  end
end
local function rank(a, b)
  local x, y = leads[a] and leads[a].requested or 0, leads[b] and leads[b].requested or 0
  if x ~= y then return x > y end
  if opened[a] ~= opened[b] then return opened[a] > opened[b] end
  return a < b
end
table.sort(withLeads, rank)
local n = math.min(k, #withLeads)
if #withLeads > k then
  local edge = withLeads[k + 1]
  while n > 0 and leads[withLeads[n]].requested == leads[edge].requested and opened[withLeads[n]] == opened[edge] do n = n - 1 end
end
for i = 1, n do first[#first + 1] = group(withLeads[i]) end
if #withLeads <= k then
  table.sort(values, function(a, b) return a > b end)
  local room, bar = k - #first, -1
  for _, v in ipairs(values) do
    if many[v] > room then bar = v; break end
    room = room - many[v]
  end
  local rest = {}
  for key, o in pairs(opened) do
    if o > bar and not (leads[key] and leads[key].requested > 0) then rest[#rest + 1] = key end
  end
  table.sort(rest, rank)
  for _, key in ipairs(rest) do first[#first + 1] = group(key) end
end
return cjson.encode({ top = first, total = out('', totalOpened, total), more = groups > #first })
`);

/** cjson writes an empty table as {}: every list in the answer may come back as an object. */
const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

function tallyOf(raw: Tally): Tally {
  const { opened, requested, placed, answered, talked, missed, failed, noConsent } = raw;
  return { opened, requested, placed, answered, talked, missed, failed, noConsent: noConsent ?? 0, answers: list<[number, number]>(raw.answers) };
}

const keyTallyOf = (raw: KeyTally): KeyTally => ({ key: String(raw.key), ...tallyOf(raw) });

export function redisReportDay(connection: RedisConnection, space: string) {
  const run = async (q: DayQuery, k: number, keys: readonly string[]) => {
    const args = [space, REPORT_DIMENSIONS.indexOf(q.by) + 1, q.by, q.fromMs, q.toMs, q.talkSeconds, k, ...keys];
    const text = await connection.evalScript('report.day', DAY, [`${space}opens:${q.day}`, `${space}leads`], args);
    return JSON.parse(String(text)) as { top: unknown; total?: Tally; more?: boolean };
  };
  return {
    async dayTop(q: DayQuery, k: number): Promise<DayTop> {
      const r = await run(q, k, []);
      return { top: list<KeyTally>(r.top).map(keyTallyOf), total: tallyOf(r.total!), more: r.more === true };
    },
    async dayGroups(q: DayQuery, keys: readonly string[]): Promise<KeyTally[]> {
      if (keys.length === 0) return [];
      return list<KeyTally>((await run(q, 0, [...new Set(keys)])).top).map(keyTallyOf);
    },
  };
}
