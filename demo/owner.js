// The owner view's own small script: polls the relay's owner API and draws agents, the latest calls
// and an inline-SVG chart of calls per day by utm source. No framework, no chart library. Every value
// from the server is set with textContent/attributes, never as HTML.
const TOKEN_KEY = 'dialback-owner-token';
const AGENTS_EVERY_MS = 3000;
const CALLS_EVERY_MS = 15000;
const LEADS_EVERY_MS = 10000;
/** What each pending lead is waiting for (its stage), as the owner reads it. */
const WAITING = {
  scheduled: 'Booked for this time',
  queued: 'Service was unreachable: held',
  checking: 'Placed: checking the call log',
  following: 'Call in progress',
  redial: 'Nobody answered: will call again',
};
const PALETTE = ['#2754c5', '#e07b24', '#2e9e5b', '#c23b6b', '#7a5cc7', '#1d9bb2', '#a0852b', '#5d6d7e'];
const SVG = 'http://www.w3.org/2000/svg';
/** Dispositions of calls that were talked through (and one still going on): not shown as missed. */
const TALKED = ['ANSWERED', 'REPEATED', 'PROPER', 'IN PROGRESS'];

// The token arrives once in the address (?token=…); keep it for this tab only and take it out of the
// address bar, history and any Referer.
const params = new URLSearchParams(location.search);
if (params.has('token')) {
  sessionStorage.setItem(TOKEN_KEY, params.get('token') ?? '');
  history.replaceState(null, '', location.pathname);
}
const token = sessionStorage.getItem(TOKEN_KEY);

const $ = (id) => document.getElementById(id);
/** An element with attributes and optional text; `ns` for SVG. */
function el(tag, attrs = {}, text, ns) {
  const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = String(text);
  return node;
}
const svg = (tag, attrs, text) => el(tag, attrs, text, SVG);

async function getJson(path, init = {}) {
  const res = await fetch(path, { ...init, headers: token ? { 'x-owner-token': token } : {}, cache: 'no-store', credentials: 'same-origin' });
  if (res.status === 404) throw new Error('This owner view needs its token: open /owner?token=… again.');
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    throw new Error(body?.error?.message ?? `The relay answered ${res.status}.`);
  }
  return res.json();
}

function setConnection(text, state) {
  const node = $('connection');
  node.textContent = text;
  node.dataset.state = state;
}

// ---- agents ----------------------------------------------------------------------------------
function renderAgents(data) {
  const list = $('agents');
  list.replaceChildren(
    ...data.agents.map((a) => {
      const state = a.speaking ? 'speaking' : a.free ? 'free' : a.online ? 'online' : 'offline';
      const li = el('li', { class: 'agent', 'data-login': a.login, 'data-state': state });
      li.append(el('span', { class: 'login' }, a.login), el('span', { class: 'state' }, state === 'speaking' ? 'on a call' : state));
      return li;
    }),
  );
  if (data.agents.length === 0) list.append(el('li', { class: 'empty' }, 'Nobody is online.'));
  const stale = data.source === 'unknown' ? ' (the call service is not answering)' : '';
  $('agents-summary').textContent = `${data.online} online · ${data.speaking} on a call · ${data.free} free${stale}`;
}

// ---- calls -----------------------------------------------------------------------------------
function formatTime(iso, timeZone) {
  return new Intl.DateTimeFormat(undefined, { timeZone, day: '2-digit', month: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(new Date(iso));
}
function formatSeconds(s) {
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

function renderCalls(data) {
  const body = $('calls').tBodies[0];
  const rows = data.latest.map((c) => {
    const tr = el('tr', { 'data-widget': c.widget });
    const missed = !TALKED.includes(c.disposition) && c.talkSeconds === 0;
    const via = el('td');
    if (c.placedHere) via.append(el('span', { class: 'badge', title: 'Placed through this relay' }, 'Widget'));
    else if (c.widget) via.append(el('span', { class: 'badge', title: 'A callback call (call_type callback)' }, 'Callback'));
    else via.textContent = c.callType;
    tr.append(
      el('td', {}, formatTime(c.time, data.timeZone)),
      el('td', {}, c.number),
      el('td', { class: missed ? 'disp-missed' : '' }, c.disposition),
      el('td', {}, formatSeconds(c.talkSeconds)),
      el('td', {}, `${c.utmSource || '—'} / ${c.utmMedium || '—'}`),
      el('td', { class: 'client-id' }, c.clientId || '—'),
      via,
    );
    return tr;
  });
  body.replaceChildren(...rows);
  if (rows.length === 0) {
    const tr = el('tr');
    tr.append(el('td', { colspan: 7, class: 'empty' }, 'No calls in the last days.'));
    body.append(tr);
  }
  const fromWidget = data.latest.filter((c) => c.widget).length;
  $('calls-summary').textContent =
    `${data.latest.length} latest calls, ${fromWidget} from the widget; times in ${data.timeZone}${data.live ? '' : ' (the call log is not answering; showing the last data)'}.`;
  renderChart(data);
}

// ---- pending leads: held calls, and failed ones to call back by hand ---------------------------
function renderLeads(data) {
  const body = $('leads').tBodies[0];
  const row = (lead, waiting, action) => {
    const tr = el('tr', { 'data-stage': lead.stage, 'data-state': lead.state, 'data-callback': lead.callbackId });
    const page = el('td', { class: 'page' }, lead.pageUrl ? new URL(lead.pageUrl).pathname : '—');
    tr.append(
      el('td', {}, formatTime(lead.at)),
      el('td', {}, lead.number),
      el('td', { class: lead.state === 'failed' ? 'disp-missed' : '' }, waiting),
      el('td', {}, `${lead.utmSource || '—'} / ${lead.utmMedium || '—'}`),
      page,
      action,
    );
    return tr;
  };
  const rows = [
    ...data.pending.map((lead) => {
      const cell = el('td');
      // The relay says whether it can still be cancelled: not a call it has placed.
      if (lead.cancellable) {
        const button = el('button', { type: 'button', class: 'cancel', 'aria-label': `Cancel the call to ${lead.number}` }, 'Cancel');
        button.addEventListener('click', () => cancelLead(lead, button));
        cell.append(button);
      }
      return row(lead, WAITING[lead.stage] ?? lead.stage, cell);
    }),
    ...data.failed.map((lead) => row(lead, `Failed (${lead.reason ?? 'unknown'}): call back by hand`, el('td'))),
  ];
  body.replaceChildren(...rows);
  if (rows.length === 0) {
    const tr = el('tr');
    tr.append(el('td', { colspan: 6, class: 'empty' }, 'No lead is waiting.'));
    body.append(tr);
  }
  $('leads-summary').textContent = `${data.pending.length} waiting, ${data.failed.length} failed in the last 7 days.`;
}

async function cancelLead(lead, button) {
  button.disabled = true;
  try {
    await getJson(`/owner/api/leads/${lead.callbackId}/cancel`, { method: 'POST' });
    $('leads-status').textContent = `The call to ${lead.number} is cancelled.`;
    renderLeads(await getJson('/owner/api/leads'));
  } catch (err) {
    button.disabled = false;
    $('leads-status').textContent = err instanceof Error ? err.message : 'The call could not be cancelled.';
  }
}

// ---- chart: stacked bars per day, one colour per utm source -----------------------------------
function renderChart(data) {
  const colour = new Map(data.sources.map((s, i) => [s, PALETTE[i % PALETTE.length]]));
  const width = 420;
  const height = 220;
  const pad = { top: 12, right: 8, bottom: 28, left: 34 };
  const max = Math.max(1, ...data.days.map((d) => d.total));
  const plotH = height - pad.top - pad.bottom;
  const slot = (width - pad.left - pad.right) / Math.max(1, data.days.length);
  const barW = Math.min(48, slot * 0.7);

  const total = data.days.reduce((n, d) => n + d.total, 0);
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `Calls per day by utm source: ${total} calls in ${data.days.length} days` });
  root.append(svg('line', { class: 'axis', x1: pad.left, x2: width - pad.right, y1: height - pad.bottom, y2: height - pad.bottom }));
  root.append(svg('text', { x: pad.left - 6, y: pad.top + 4, 'text-anchor': 'end' }, max), svg('text', { x: pad.left - 6, y: height - pad.bottom, 'text-anchor': 'end' }, 0));

  data.days.forEach((d, i) => {
    const x = pad.left + i * slot + (slot - barW) / 2;
    let y = height - pad.bottom;
    const group = svg('g', { 'data-day': d.day });
    for (const source of data.sources) {
      const n = d.bySource[source] ?? 0;
      if (n === 0) continue;
      const h = (n / max) * plotH;
      y -= h;
      const rect = svg('rect', {
        x: x.toFixed(1),
        y: y.toFixed(1),
        width: barW.toFixed(1),
        height: h.toFixed(1),
        fill: colour.get(source),
        'data-source': source,
        'data-count': n,
      });
      rect.append(svg('title', {}, `${d.day} · ${source}: ${n}`));
      group.append(rect);
    }
    group.append(svg('text', { x: (x + barW / 2).toFixed(1), y: height - pad.bottom + 16, 'text-anchor': 'middle' }, d.day.slice(5)));
    root.append(group);
  });
  $('chart').replaceChildren(root);

  $('legend').replaceChildren(
    ...data.sources.map((s) => {
      const li = el('li', { 'data-source': s });
      const swatch = el('span', { class: 'swatch', 'aria-hidden': 'true' });
      swatch.style.background = colour.get(s);
      li.append(swatch, document.createTextNode(s));
      return li;
    }),
  );
}

// ---- polling: sequential, paused while the tab is hidden -----------------------------------------
function poll(path, render, everyMs) {
  let timer = 0;
  let running = false;
  async function tick() {
    clearTimeout(timer);
    if (running) return; // the one in flight schedules the next
    running = true;
    try {
      render(await getJson(path));
      setConnection(`Updated ${new Date().toLocaleTimeString()}`, 'ok');
    } catch (err) {
      setConnection(err instanceof Error ? err.message : 'The relay is not answering.', 'error');
    }
    running = false;
    timer = setTimeout(tick, document.hidden ? everyMs * 5 : everyMs);
  }
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) tick();
  });
  tick();
}

poll('/owner/api/agents', renderAgents, AGENTS_EVERY_MS);
poll('/owner/api/calls', renderCalls, CALLS_EVERY_MS);
poll('/owner/api/leads', renderLeads, LEADS_EVERY_MS);
