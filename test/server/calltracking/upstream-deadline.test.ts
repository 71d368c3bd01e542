// The total upstream deadline (UPSTREAM_TIMEOUT_MS) holds even when the service keeps every
// single wait short: headers at once, then a body that trickles in forever.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransport } from '../../../server/src/calltracking/transport.ts';
import { CallTrackingTimeoutError } from '../../../server/src/calltracking/errors.ts';
import { listen, type Listening } from '../../support/listen.ts';

let trickle: Listening;
const timers = new Set<NodeJS.Timeout>();

beforeAll(async () => {
  trickle = await listen(
    createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => res.write(' '), 50);
      timers.add(t);
      res.on('close', () => clearInterval(t));
    }),
  );
});
afterAll(async () => {
  for (const t of timers) clearInterval(t);
  await trickle.close();
});

describe('upstream deadline', () => {
  it('ends a request whose body never finishes, as a timeout, after the total time allowed', async () => {
    const transport = createTransport({ baseUrl: trickle.url, authKey: 'k', timeoutMs: 400 });
    const err = await transport.send({ method: 'GET', path: '/sipstatus/online' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CallTrackingTimeoutError);
    await transport.close();
  });
});
