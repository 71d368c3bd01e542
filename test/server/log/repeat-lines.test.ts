// Under a flood, cheap answers (status, widget files, preflights, client errors and refusals) share
// a summary line per kind and window (LOG_REPEAT_WINDOW_MS); lines that carry something of their
// own are always written. Over real sockets; the windows run on timers the test moves on.
import { describe, expect, it } from 'vitest';
import { createManualTimers } from '../../support/manual-timers.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { systemPerTest, type System } from '../../support/system.ts';
import { tempDir } from '../../support/temp-dirs.ts';

const WINDOW_MS = 300;
const clock = createManualTimers();
const start = systemPerTest(
  { ALLOWED_ORIGINS: ORIGIN, LOG_REPEAT_WINDOW_MS: String(WINDOW_MS), STATUS_CACHE_MS: '60000', TRUSTED_PROXIES: '127.0.0.1', LIMIT_CLIENT_RATE: '1' },
  { timers: clock.timers },
);

const requestLines = (s: System, path: string) => s.logs.filter((l) => l.msg === 'request' && l.path === path);
const summaries = (s: System) => s.logs.filter((l) => l.msg === 'repeated requests');
const windowEnds = async () => clock.advance(WINDOW_MS);
const metric = async (s: System, pattern: RegExp) => Number(pattern.exec(await (await fetch(`${s.relayUrl}/metrics`)).text())?.[1]);

describe('repeated request lines', () => {
  it('folds a flood of status reads into one line and one summary per window; metrics count them all', async () => {
    const s = await start();
    for (let i = 0; i < 50; i++) expect((await fetch(`${s.relayUrl}/api/status`, { headers: { origin: ORIGIN } })).status).toBe(200);
    expect(requestLines(s, '/api/status')).toHaveLength(1);
    await windowEnds();
    expect(summaries(s)).toEqual([expect.objectContaining({ level: 'info', route: '/api/status', method: 'GET', status: 200, more: 49, windowMs: WINDOW_MS })]);
    expect(await metric(s, /dialback_http_requests_total\{route="\/api\/status",method="GET",status="200"\} (\d+)/)).toBe(50);
    // The next window starts with a full line again.
    await fetch(`${s.relayUrl}/api/status`);
    expect(requestLines(s, '/api/status')).toHaveLength(2);
  });

  it('writes every line with LOG_REPEAT_WINDOW_MS=0', async () => {
    const s = await start({ LOG_REPEAT_WINDOW_MS: '0' });
    for (let i = 0; i < 20; i++) await fetch(`${s.relayUrl}/api/status`);
    for (let i = 0; i < 5; i++) await fetch(`${s.relayUrl}/no-such-page`);
    expect(requestLines(s, '/api/status')).toHaveLength(20);
    expect(requestLines(s, '/no-such-page')).toHaveLength(5);
    await windowEnds();
    expect(summaries(s)).toEqual([]);
  });

  it('folds refusals made before the body is read, by reason; refusals after reading a body, by reason and number', async () => {
    const s = await start();
    const client = '198.51.100.20';
    expect((await postCallback(s, { phone: '+380501234567' }, { forwardedFor: client })).status).toBe(202);
    for (let i = 0; i < 10; i++) expect((await postCallback(s, 'not json', { forwardedFor: client })).status).toBe(429); // over its rate: body unread
    // Another client asking for the same number is refused by its cooldown, after its body is read.
    for (let i = 0; i < 3; i++) expect((await postCallback(s, { phone: '+380501234567' }, { forwardedFor: `198.51.100.${30 + i}` })).status).toBe(429);
    // And another number in its cooldown: a kind of its own, with its own first line.
    expect((await postCallback(s, { phone: '+380671112233' }, { forwardedFor: '198.51.100.50' })).status).toBe(202);
    for (let i = 0; i < 2; i++) expect((await postCallback(s, { phone: '+380671112233' }, { forwardedFor: `198.51.100.${60 + i}` })).status).toBe(429);
    const refusedLines = requestLines(s, '/api/callback').filter((l) => l.status === 429);
    expect(refusedLines.filter((l) => l.refused === 'client_rate')).toHaveLength(1);
    expect(refusedLines.filter((l) => l.refused === 'number_cooldown').map((l) => l.phone)).toEqual(['+380*******67', '+380*******33']);
    await windowEnds();
    expect(summaries(s)).toEqual([
      expect.objectContaining({ route: '/api/callback', method: 'POST', status: 429, reason: 'client_rate', more: 9 }),
      expect.objectContaining({ route: '/api/callback', method: 'POST', status: 429, reason: 'number_cooldown', phone: '+380*******67', more: 2 }),
      expect.objectContaining({ route: '/api/callback', method: 'POST', status: 429, reason: 'number_cooldown', phone: '+380*******33', more: 1 }),
    ]);
  });

  it('folds 404s for unknown paths into one kind, whatever the path', async () => {
    const s = await start();
    for (let i = 0; i < 10; i++) expect((await fetch(`${s.relayUrl}/wp-login-${i}.php`)).status).toBe(404);
    expect(s.logs.filter((l) => l.msg === 'request' && l.status === 404)).toHaveLength(1);
    await windowEnds();
    expect(summaries(s)).toEqual([expect.objectContaining({ route: 'unmatched', status: 404, reason: 'not_found', more: 9 })]);
  });

  it('folds client errors by their code, and names the code on the line that is written', async () => {
    const s = await start();
    const client = '198.51.100.40';
    for (let i = 0; i < 6; i++) expect((await postCallback(s, 'not json', { forwardedFor: client })).status).toBe(400);
    for (let i = 0; i < 4; i++) expect((await postCallback(s, { phone: '12' }, { forwardedFor: client })).status).toBe(400);
    const foreign = () => postCallback(s, '{}', { origin: 'https://evil.example' });
    for (let i = 0; i < 3; i++) expect((await foreign()).status).toBe(403);
    const preflight = () => fetch(`${s.relayUrl}/api/callback`, { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } });
    for (let i = 0; i < 3; i++) expect((await preflight()).status).toBe(204);
    const lines = requestLines(s, '/api/callback');
    expect(lines.map((l) => [l.status, l.error])).toEqual([
      [400, 'invalid_request'],
      [400, 'invalid_phone'],
      [403, 'origin_not_allowed'],
      [204, undefined],
    ]);
    await windowEnds();
    expect(summaries(s)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 400, reason: 'invalid_request', more: 5 }),
        expect.objectContaining({ status: 400, reason: 'invalid_phone', more: 3 }),
        expect.objectContaining({ status: 403, reason: 'origin_not_allowed', more: 2 }),
        expect.objectContaining({ method: 'OPTIONS', status: 204, more: 2 }),
      ]),
    );
    expect(summaries(s)).toHaveLength(4);
  });

  it('never folds a server error: every 5xx keeps its line', async () => {
    const s = await start({ WIDGET_DIR: tempDir('empty') });
    for (let i = 0; i < 5; i++) expect((await fetch(`${s.relayUrl}/widget.js`)).status).toBe(503);
    expect(requestLines(s, '/widget.js')).toHaveLength(5);
    await windowEnds();
    expect(summaries(s)).toEqual([]);
  });
});
