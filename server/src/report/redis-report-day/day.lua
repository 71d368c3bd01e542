-- One day of the report (ReportStore's dayTop and dayGroups) from the day's index of its opens and
-- its leads: the day's first k groups by leads asked for, then opens, then key, less any that tie
-- the first left out, with the day's total; or (dayGroups) the groups of the keys asked for.
-- KEYS: the day's keys (dayKeys: 1 the opens, 2 their total, 3-7 by dimension), 8 the leads index.
-- ARGV: space, the dimension's place (1-5) and its name in a lead's hash, fromMs, toMs,
--   talkSeconds, k, then (dayGroups) the keys wanted.
-- Returns: JSON {top, total, more}; {top} for dayGroups.
--#include ../redis-open-index.lua
index(1)
local space, dim, field = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local from, to, talk, k = ARGV[4], ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])
local OPENS, LEADS = KEYS[2 + dim], KEYS[8]
local only = nil
if #ARGV > 7 then
  only = {}
  for i = 8, #ARGV do only[ARGV[i]] = true end
end
local function tally() return { requested = 0, placed = 0, answered = 0, talked = 0, missed = 0, failed = 0, noConsent = 0, answers = {} } end
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
local leads, total = {}, tally()
for _, id in ipairs(redis.call('ZRANGEBYSCORE', LEADS, from, '(' .. to)) do
  local l = redis.call('HMGET', space .. 'lead:' .. id, 'at', field, 'requestedAs', 'placed', 'outcome', 'answerSeconds', 'talkSeconds', 'consent')
  if l[1] then
    local v = l[2] or ''
    addLead(total, l)
    if only == nil or only[v] then
      if leads[v] == nil then leads[v] = tally() end
      addLead(leads[v], l)
    end
  end
end
-- A group's opens, false when the day has none of it.
local opened = {}
local function opensOf(key)
  if opened[key] == nil then
    local n = redis.call('ZSCORE', OPENS, key)
    opened[key] = n and tonumber(n) or false
  end
  return opened[key]
end
local NONE = tally()
local function out(key, n, g)
  local answers = {}
  for s, c in pairs(g.answers) do answers[#answers + 1] = { tonumber(s), c } end
  return { key = key, opened = n, requested = g.requested, placed = g.placed, answered = g.answered, talked = g.talked, missed = g.missed, failed = g.failed, noConsent = g.noConsent, answers = answers }
end
local function group(key) return out(key, opensOf(key) or 0, leads[key] or NONE) end
local first = {}
if only then
  for key in pairs(only) do
    if leads[key] or opensOf(key) then first[#first + 1] = group(key) end
  end
  return cjson.encode({ top = first })
end
-- The first k by leads asked for, then opens, then key, less any that tie the first left out
-- (tally.ts firstOf). Groups with leads are a handful, sorted here. The others come from the
-- dimension's set in order of opens: of the first ones that would fit, those that tie the first
-- left out are left out too, so a flood's thousands of one-open groups are never read.
local groups = tonumber(redis.call('ZCARD', OPENS))
local withLeads, isLead, noOpens = {}, {}, {}
for key, g in pairs(leads) do
  if not opensOf(key) then groups = groups + 1; noOpens[#noOpens + 1] = key end
  if g.requested > 0 then withLeads[#withLeads + 1] = key; isLead[key] = true end
end
local function rank(a, b)
  local x, y = leads[a] and leads[a].requested or 0, leads[b] and leads[b].requested or 0
  if x ~= y then return x > y end
  local p, q = opensOf(a) or 0, opensOf(b) or 0
  if p ~= q then return p > q end
  return a < b
end
table.sort(withLeads, rank)
local n = math.min(k, #withLeads)
if #withLeads > k then
  local edge = withLeads[k + 1]
  while n > 0 and leads[withLeads[n]].requested == leads[edge].requested and (opensOf(withLeads[n]) or 0) == (opensOf(edge) or 0) do n = n - 1 end
end
for i = 1, n do first[#first + 1] = group(withLeads[i]) end
local room = k - #first
if #withLeads <= k and room > 0 then
  local want = room + #withLeads + 1
  local z = redis.call('ZREVRANGE', OPENS, 0, want - 1, 'WITHSCORES')
  local list = {}
  for i = 1, #z, 2 do
    if not isLead[z[i]] then list[#list + 1] = { z[i], tonumber(z[i + 1]) } end
  end
  -- The whole set was read: the groups with leads but no opens come last, with none.
  if #z / 2 < want then
    for _, key in ipairs(noOpens) do
      if not isLead[key] then list[#list + 1] = { key, 0 } end
    end
  end
  local bar = -1
  if #list > room then bar = list[room + 1][2] end
  local rest = {}
  for i = 1, math.min(room, #list) do
    if list[i][2] > bar then rest[#rest + 1] = list[i][1] end
  end
  table.sort(rest, rank)
  for _, key in ipairs(rest) do first[#first + 1] = group(key) end
end
local whole = out('', tonumber(redis.call('GET', KEYS[2]) or 0), total)
return cjson.encode({ top = first, total = whole, more = groups > #first })
