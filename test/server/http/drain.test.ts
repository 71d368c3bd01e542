// What a relay does with its connections once told to stop: it refuses new ones at once (even while
// it still holds a call in hand), answers every request it has started to read (never a reset with
// an answer pending: a proxy does not retry a POST it has sent), and lets idle keep-alive sockets go.
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { callbackCalls } from '../../support/system.ts';
import { heldJobFor, heldRelayPerTest, ORIGIN } from '../../support/held-calls.ts';

// Monday 2026-11-23 10:00 in Kyiv: the office (Mon-Fri 09-18) is open.
const MONDAY_10 = new Date('2026-11-23T08:00:00Z');
const { clock, start } = heldRelayPerTest(MONDAY_10);
const OFFICE = { WORKING_HOURS: 'Mon-Fri 09:00-18:00', TIMEZONE: 'Europe/Kyiv' };

function portOf(url: string): number {
  return Number(new URL(url).port);
}

/** Resolves with the socket once connected, or with the connection error's code. */
function tryConnect(port: number): Promise<Socket | string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket));
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

/** Everything the server sends on `socket` until it closes, and how it closed. */
function readAll(socket: Socket): Promise<{ text: string; reset: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    let reset = false;
    socket.on('data', (d) => (text += d));
    socket.on('error', (err: NodeJS.ErrnoException) => (reset ||= err.code === 'ECONNRESET'));
    socket.on('close', () => resolve({ text, reset }));
  });
}

const flush = () => new Promise((r) => setTimeout(r, 20));

describe('draining connections on shutdown', () => {
  it('refuses new connections at once while a held call is still in hand', async () => {
    // The runner on real timers, looking every 50 ms, as in production (only slower there).
    const s = await start(OFFICE, { webhook: false, runner: { intervalMs: 50 } });
    const job = heldJobFor('+380501112201', 'scheduled', clock.ms);
    await s.relay.app.stores.jobs.add(job, clock.ms - 60_000);
    s.sim.faults.set('callback', { kind: 'delay', ms: 1_500 });
    while (callbackCalls(s).length === 0) await flush();

    const closing = s.relay.close();
    await flush();
    // The runner still has the call in hand (the service answers in 1.5 s): no new client now.
    expect(await tryConnect(portOf(s.relayUrl))).toBe('ECONNREFUSED');
    await closing;
    expect(await s.relay.app.stores.jobs.get(job.callbackId)).toMatchObject({ stage: 'following' });
  });

  it('answers a request whose head was still arriving when it was told to stop, instead of resetting it', async () => {
    const s = await start(OFFICE, { webhook: false });
    const socket = (await tryConnect(portOf(s.relayUrl))) as Socket;
    const reply = readAll(socket);
    socket.write('GET /healthz HTTP/1.1\r\nHost: relay\r\n'); // the rest of the head is on its way
    await flush();
    const closing = s.relay.close();
    await flush();
    socket.write('\r\n');
    const { text, reset } = await reply;
    await closing;
    expect(reset).toBe(false);
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text.toLowerCase()).toContain('connection: close');
  });

  it('closes a keep-alive socket that sits idle, and one that never sent a byte, without waiting for their timeouts', async () => {
    const s = await start({ ...OFFICE, KEEP_ALIVE_TIMEOUT_MS: '60000' }, { webhook: false });
    const used = (await tryConnect(portOf(s.relayUrl))) as Socket;
    const usedReply = readAll(used);
    used.write('GET /healthz HTTP/1.1\r\nHost: relay\r\n\r\n');
    while (!used.bytesRead) await flush();
    const silent = (await tryConnect(portOf(s.relayUrl))) as Socket;
    const silentReply = readAll(silent);
    await flush();

    const started = Date.now();
    await s.relay.close();
    const [a, b] = await Promise.all([usedReply, silentReply]);
    expect(Date.now() - started).toBeLessThan(5_000); // not the 60 s keep-alive timeout
    expect(a.text).toMatch(/^HTTP\/1\.1 200 /);
    expect(a.reset).toBe(false);
    expect(b).toEqual({ text: '', reset: false });
  });

  it('does not handle a request that arrives on a socket it has already let go', async () => {
    const s = await start(OFFICE, { webhook: false });
    const socket = connect({ port: portOf(s.relayUrl), host: '127.0.0.1', allowHalfOpen: true });
    await new Promise((resolve) => socket.once('connect', resolve));
    const reply = readAll(socket);
    const letGo = new Promise((resolve) => socket.once('end', resolve));
    const closing = s.relay.close();
    await letGo;
    // The client had not seen the FIN when it sent this (a proxy reusing a kept-alive socket).
    const body = JSON.stringify({ phone: '+380501112202' });
    socket.end(`POST /api/callback HTTP/1.1\r\nHost: relay\r\nOrigin: ${ORIGIN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    const { text } = await reply;
    await closing;
    expect(text).toBe('');
    expect(callbackCalls(s)).toHaveLength(0);
  });
});
