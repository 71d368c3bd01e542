-- Included: a limit record and its rules, the arithmetic every limit script shares. One key per
-- (table, subject) holds a short string that mirrors the memory store's record
-- (limits/memory/limit-store.ts), with the same rules and the same arithmetic:
--
--   "<log>|<counters>|<distinct>"
--   log       newest L accepted times (epoch seconds), comma-separated; L = the largest count
--             limit of at most 8 (exact sliding windows, cooldowns)
--   counters  "<windowSec>:<windowIndex>:<prev>:<curr>" per window of a count limit above 8
--             (two-window weighted counter: site caps, daily client caps)
--   distinct  "<windowStart>:<member>,<member>…": members are 8 hex digits of the member's keyed
--             hash, the window is anchored at the first member
--
-- e.g. a number after two calls: "1700006521,1700006401||"; a site: "|3600:472224:37:12,86400:19676:401:96|".
-- Rules travel with every call as "<ttl>;c,<limit>,<window>;d,<limit>,<window>,<member>" (rule-specs.ts):
-- the store keeps no rule state of its own, so relays with different settings (a rolling deploy)
-- never corrupt a record, they only judge it by their own rules.
local LOG_MAX = 8
local COUNT_MAX = 65535

-- A batch repeats a few specs (every client's strikes have the same rules): each is parsed once.
local parsed = {}
-- A trailing "b" marks a table that blocks a client before its body is read (blocks.lua).
local function parse_rules(spec)
  local hit = parsed[spec]
  if hit then return hit[1], hit[2], hit[3] end
  local rules = {}
  local ttl
  local blocking = false
  for item in string.gmatch(spec, '[^;]+') do
    if not ttl then
      ttl = tonumber(item)
    elseif item == 'b' then
      blocking = true
    else
      local kind, limit, window, member = string.match(item, '^(%a),(%d+),(%d+),?(%x*)$')
      rules[#rules + 1] = { kind = kind, limit = tonumber(limit), window = tonumber(window), member = member }
    end
  end
  parsed[spec] = { ttl, rules, blocking }
  return ttl, rules, blocking
end

local function decode(raw)
  local rec = { log = {}, ctr = {}, dstart = 0, members = {} }
  if not raw then return rec end
  local l, c, d = string.match(raw, '^([^|]*)|([^|]*)|(.*)$')
  if not l then return rec end
  for t in string.gmatch(l, '%d+') do rec.log[#rec.log + 1] = tonumber(t) end
  for w, i, p, q in string.gmatch(c, '(%d+):(%d+):(%d+):(%d+)') do
    rec.ctr[tonumber(w)] = { tonumber(i), tonumber(p), tonumber(q) }
  end
  local s, ms = string.match(d, '^(%d+)(.*)$')
  if s then
    rec.dstart = tonumber(s)
    for m in string.gmatch(ms, '%x+') do rec.members[#rec.members + 1] = m end
  end
  return rec
end

local function encode(rec)
  local ls = {}
  for i, t in ipairs(rec.log) do ls[i] = string.format('%d', t) end
  local ws = {}
  for w in pairs(rec.ctr) do ws[#ws + 1] = w end
  table.sort(ws)
  local cs = {}
  for _, w in ipairs(ws) do
    local s = rec.ctr[w]
    cs[#cs + 1] = string.format('%d:%d:%d:%d', w, s[1], s[2], s[3])
  end
  local d = ''
  if rec.dstart > 0 then d = string.format('%d', rec.dstart) .. ':' .. table.concat(rec.members, ',') end
  return table.concat(ls, ',') .. '|' .. table.concat(cs, ',') .. '|' .. d
end

local function read_counter(s, idx)
  if not s then return 0, 0 end
  if s[1] == idx then return s[2], s[3] end
  if s[1] == idx - 1 then return s[3], 0 end
  return 0, 0
end

-- When the weighted estimate will have dropped enough for one more request.
local function counter_retry(prev, curr, limit, w, idx, now)
  local room = limit - 1
  local at
  if curr > room then
    at = (idx + 1) * w + math.ceil(w * (1 - room / curr))
  else
    at = idx * w + math.ceil(w * (1 - (room - curr) / prev))
  end
  return math.max(1, at - now)
end

local function has_member(rec, member)
  for _, m in ipairs(rec.members) do
    if m == member then return true end
  end
  return false
end

-- Appends check, rule, retryAfter for every rule that refuses at now.
local function evaluate(rec, rules, now, out, check)
  for ri, r in ipairs(rules) do
    local retry
    if r.kind == 'c' and r.limit <= LOG_MAX then
      local inw = {}
      for _, t in ipairs(rec.log) do
        if now - t < r.window then inw[#inw + 1] = t end
      end
      if #inw >= r.limit then
        table.sort(inw)
        retry = math.max(1, inw[#inw - r.limit + 1] + r.window - now)
      end
    elseif r.kind == 'c' then
      local idx = math.floor(now / r.window)
      local frac = (now - idx * r.window) / r.window
      local prev, curr = read_counter(rec.ctr[r.window], idx)
      if prev * (1 - frac) + curr > r.limit - 1 then
        retry = counter_retry(prev, curr, r.limit, r.window, idx, now)
      end
    elseif rec.dstart > 0 and now - rec.dstart < r.window then
      if #rec.members >= r.limit and not has_member(rec, r.member) then
        retry = math.max(1, rec.dstart + r.window - now)
      end
    end
    if retry then
      out[#out + 1] = check
      out[#out + 1] = ri
      out[#out + 1] = retry
    end
  end
end

-- Records one accepted request; returns 1 when a distinct member was added.
local function apply(rec, rules, now)
  local width = 0
  for _, r in ipairs(rules) do
    if r.kind == 'c' and r.limit <= LOG_MAX and r.limit > width then width = r.limit end
  end
  if width > 0 then
    local log = rec.log
    log[#log + 1] = now
    table.sort(log, function(a, b) return a > b end)
    for i = #log, width + 1, -1 do table.remove(log, i) end
  end
  local seen = {}
  for _, r in ipairs(rules) do
    if r.kind == 'c' and r.limit > LOG_MAX and not seen[r.window] then
      seen[r.window] = true
      local idx = math.floor(now / r.window)
      local prev, curr = read_counter(rec.ctr[r.window], idx)
      rec.ctr[r.window] = { idx, math.min(prev, COUNT_MAX), math.min(curr + 1, COUNT_MAX) }
    end
  end
  local added = 0
  for _, r in ipairs(rules) do
    if r.kind == 'd' then
      if rec.dstart == 0 or now - rec.dstart >= r.window then
        rec.dstart = now
        rec.members = {}
      end
      if not has_member(rec, r.member) and #rec.members < r.limit then
        rec.members[#rec.members + 1] = r.member
        added = 1
      end
    end
  end
  return added
end
