// The HTTP edge under hostile clients, over raw sockets where fetch would be too polite: bodies
// too large (declared or streamed), wrong media types, huge headers, slowloris, a connection flood.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { callbackCalls, QUICK_CALLS, startSystem, type System } from '../../support/system.ts';

let s: System;
beforeAll(async () => {
  s = await startSystem({ ALLOWED_ORIGINS: ORIGIN, HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000', MAX_CONNECTIONS: '40' }, { simulator: { timing: QUICK_CALLS } });
});
afterAll(() => s.close());

const port = () => Number(new URL(s.relayUrl).port);

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port(), '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server writes until it closes the connection. */
function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    socket.on('data', (d) => (out += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => resolve(out));
  });
}

async function raw(text: string): Promise<string> {
  const socket = await open();
  const done = readAll(socket);
  socket.write(text);
  return done;
}

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);

describe('request limits', () => {
  it('refuses a declared oversized body with 413 without reading it', async () => {
    const res = await postCallback(s, { phone: '+380501234567', consentText: 'x'.repeat(30_000) });
    expect(res.status).toBe(413);
    expect(res.json.error!.code).toBe('payload_too_large');
  });

  it('takes the longest body the widget can send: a 2,000-character sentence in three-byte characters, its links, a token, every attribution value', async () => {
    // A number no policy takes: the answer shows the body was read and checked field by field, and
    // nothing is placed.
    const body = {
      phone: '+1 555',
      consent: true,
      consentText: '我'.repeat(2000),
      privacyUrl: `https://shop.example/${'p'.repeat(1970)}`,
      pageUrl: `https://shop.example/${'a'.repeat(2020)}`,
      turnstileToken: 't'.repeat(4096),
      attribution: Object.fromEntries(['utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent', 'clientId'].map((k) => [k, '广'.repeat(200)])),
    };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(16_000);
    const res = await postCallback(s, body);
    expect({ status: res.status, code: res.code }).toEqual({ status: 400, code: 'invalid_phone' });
  });

  it('refuses on the declared Content-Length alone (413), without waiting for a body that never comes', async () => {
    // Headers only: a relay that waited for the 100,000 bytes would answer 408 at the request timeout.
    const response = await raw(`POST /api/callback HTTP/1.1\r\nHost: x\r\nOrigin: ${ORIGIN}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`);
    expect(statusOf(response)).toBe(413);
    expect(response).toMatch(/\r\nconnection: close\r\n/i);
    expect(response).toContain('payload_too_large');
    expect(callbackCalls(s)).toHaveLength(0);
  });

  it('stops a chunked body at the limit while it streams (413), never buffering the rest', async () => {
    const socket = await open();
    const done = readAll(socket);
    socket.write(`POST /api/callback HTTP/1.1\r\nHost: x\r\nOrigin: ${ORIGIN}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const chunk = 'a'.repeat(1024);
    for (let i = 0; i < 24 && !socket.destroyed; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const response = await done;
    expect(statusOf(response)).toBe(413);
    expect(response).toContain('payload_too_large');
  });

  it('answers 415 to anything but JSON', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '']) {
      const res = await fetch(`${s.relayUrl}/api/callback`, {
        method: 'POST',
        headers: { origin: ORIGIN, ...(type && { 'content-type': type }) },
        body: type ? 'phone=+380501234567' : new Blob(['{"phone":"+380501234567"}']),
      });
      expect(res.status).toBe(415);
    }
    expect(callbackCalls(s)).toHaveLength(0);
  });

  it('answers 431 to oversized headers', async () => {
    const response = await raw(`GET /api/status HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(statusOf(response)).toBe(431);
    expect(response).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(response).toContain('headers_too_large');
  });

  it('answers 400 to garbage that is not HTTP', async () => {
    const response = await raw('\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http at all\r\n\r\n');
    expect(statusOf(response)).toBe(400);
    expect(response).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(response).toContain('invalid_request');
  });
});

describe('slow clients', () => {
  it('closes slowloris connections (headers never finished) while normal requests keep being served', async () => {
    const slow = await Promise.all(Array.from({ length: 20 }, () => open()));
    const closed = slow.map((socket) => readAll(socket));
    // Drip one header line now and then, never finishing.
    for (const socket of slow) socket.write('GET /api/status HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => {
      for (const socket of slow) if (!socket.destroyed) socket.write(`X-${Math.random().toString(36).slice(2)}: 1\r\n`);
    }, 200);
    try {
      // Meanwhile the relay serves everyone else.
      for (let i = 0; i < 10; i++) {
        const res = await fetch(`${s.relayUrl}/healthz`);
        expect(res.status).toBe(200);
        await new Promise((r) => setTimeout(r, 50));
      }
      const responses = await Promise.all(closed);
      for (const response of responses) expect([0, 408]).toContain(response === '' ? 0 : statusOf(response));
      expect(slow.every((socket) => socket.destroyed || socket.readyState === 'closed')).toBe(true);
    } finally {
      clearInterval(drip);
      for (const socket of slow) socket.destroy();
    }
  });

  it('closes a connection whose body trickles in past the request timeout', async () => {
    const socket = await open();
    const done = readAll(socket);
    socket.write(`POST /api/callback HTTP/1.1\r\nHost: x\r\nOrigin: ${ORIGIN}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"phone":`);
    const drip = setInterval(() => !socket.destroyed && socket.write(' '), 200);
    try {
      const response = await done;
      expect(response === '' || statusOf(response) === 408).toBe(true);
    } finally {
      clearInterval(drip);
    }
    expect(callbackCalls(s)).toHaveLength(0);
  });
});

describe('connection cap', () => {
  it('closes connections beyond MAX_CONNECTIONS at once, and serves again when they go', async () => {
    const held = await Promise.all(Array.from({ length: 40 }, () => open()));
    // Keep them busy so they are not idle-closed while we look.
    for (const socket of held) socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    try {
      const extra = await open().catch(() => null);
      if (extra) {
        const response = await readAll(extra);
        expect(response).toBe('');
      }
    } finally {
      for (const socket of held) socket.destroy();
    }
    await new Promise((r) => setTimeout(r, 100));
    expect((await fetch(`${s.relayUrl}/healthz`)).status).toBe(200);
  });
});
