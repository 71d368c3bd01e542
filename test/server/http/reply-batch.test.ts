// Replies are written at the end of the event-loop turn that made them, all of that turn together
// (server/src/http/reply-batch.ts). Through a real server: what a client sees.
import { createServer, type ServerResponse } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import { createReplyBatch } from '../../../server/src/http/reply-batch.ts';
import { listen, type Listening } from '../../support/listen.ts';

let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

test('a reply is written after the turn that made it, with the others of that turn, in order', async () => {
  const order: string[] = [];
  const batch = createReplyBatch(() => {});
  const held: ServerResponse[] = [];
  server = await listen(
    createServer((_req, res) => {
      held.push(res);
    }),
  );
  const answers = [fetch(server.url), fetch(server.url), fetch(server.url)];
  await expect.poll(() => held.length).toBe(3);
  for (const [i, res] of held.entries()) {
    batch.add(res, () => {
      order.push(`wrote ${i}`);
      res.end(`reply ${i}`);
    });
  }
  order.push('turn goes on');
  expect(held.every((res) => !res.headersSent)).toBe(true);
  await turn();
  expect(order).toEqual(['turn goes on', 'wrote 0', 'wrote 1', 'wrote 2']);
  expect(await Promise.all(answers.map(async (a) => (await a).text()))).toEqual(['reply 0', 'reply 1', 'reply 2']);
});

test('a reply made while a batch is written leaves with the next batch', async () => {
  const order: string[] = [];
  const batch = createReplyBatch(() => {});
  // Never written to: only the order of the writes is looked at.
  const res = {} as ServerResponse;
  batch.add(res, () => {
    order.push('first');
    batch.add(res, () => order.push('made while writing'));
  });
  await turn();
  expect(order).toEqual(['first']);
  await turn();
  expect(order).toEqual(['first', 'made while writing']);
});

test('a write that throws is reported and its connection dropped; the rest of the batch is written', async () => {
  const reported: unknown[] = [];
  const batch = createReplyBatch((err) => reported.push(err));
  server = await listen(
    createServer((req, res) => {
      batch.add(res, () => {
        // An invalid header value: node refuses it before anything is sent.
        if (req.url === '/bad') res.setHeader('x-bad', 'line\nbreak');
        res.end('ok');
      });
    }),
  );
  const bad = fetch(`${server.url}/bad`);
  const good = fetch(`${server.url}/good`);
  await expect(bad).rejects.toThrow();
  expect(await (await good).text()).toBe('ok');
  expect(reported).toHaveLength(1);
  expect((reported[0] as { code?: string }).code).toBe('ERR_INVALID_CHAR');
});

test('a reply to a visitor who has gone is dropped quietly: nothing reported, nothing thrown', async () => {
  const reported: unknown[] = [];
  const batch = createReplyBatch((err) => reported.push(err));
  const held: ServerResponse[] = [];
  server = await listen(createServer((_req, res) => held.push(res)));
  const gone = new AbortController();
  const asked = fetch(server.url, { signal: gone.signal }).catch((err: unknown) => err);
  await expect.poll(() => held.length).toBe(1);
  const res = held[0]!;
  const closed = new Promise((resolve) => res.once('close', resolve));
  gone.abort();
  await closed;
  let wrote = false;
  batch.add(res, () => {
    res.end('too late');
    wrote = true;
  });
  await turn();
  await turn();
  expect(wrote).toBe(true);
  expect(reported).toEqual([]);
  expect(await asked).toBeInstanceOf(Error);
});
