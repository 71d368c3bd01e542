// Firefox ESR for the e2e project's files, launched once and lent to one file at a time (a Vitest
// globalSetup of the e2e project, see vite.config.ts). A launch costs seconds (a fresh profile's
// first start, ~7-12 s on a loaded 2-core machine) where connecting costs ~0.2 s, and Firefox
// takes one WebDriver BiDi session at a time: so each file leases a whole browser for its run, and
// a second one is launched only while two files need Firefox at once. The file works in a user
// context of its own (its storage, cookies and cache), closed when it gives the browser back.
//
// The lease is a TCP connection to the pool: the pool writes the browser's BiDi address when one is
// free; the file writes `done` once it has ended its session, then closes. A connection that closes
// without `done` (the file's process died) takes its browser with it: killed, never lent again.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import type { TestProject } from 'vitest/node';
import { firefoxOptions } from './firefox.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Firefox pool's port on 127.0.0.1 (firefox-pool.ts). */
    firefoxPool: number;
  }
}

interface Pooled {
  endpoint: string;
  process: ChildProcess | null;
  profile: string;
}

async function launch(): Promise<Pooled> {
  const profile = mkdtempSync(join(tmpdir(), 'dialback-firefox-'));
  const browser = await puppeteer.launch({ ...firefoxOptions(profile), handleSIGINT: true, handleSIGTERM: true });
  const endpoint = browser.wsEndpoint();
  // The pool holds the process, not a session: the file's own connection starts one.
  await browser.disconnect();
  return { endpoint, process: browser.process(), profile };
}

function quit(pooled: Pooled): Promise<void> {
  const child = pooled.process;
  const exited = !child || child.exitCode !== null || child.signalCode !== null;
  return (exited ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()).kill('SIGTERM'))).then(() =>
    rmSync(pooled.profile, { recursive: true, force: true }),
  );
}

export default async function setup(project: TestProject) {
  const idle: Pooled[] = [];
  const all = new Set<Promise<Pooled>>();
  const lend = async (socket: Socket) => {
    const launched = idle.length ? Promise.resolve(idle.pop()!) : launch();
    all.add(launched);
    const pooled = await launched;
    // The file went away before a browser was free: never lent, so as good as new.
    if (socket.destroyed) return void idle.push(pooled);
    let returned = false;
    socket.on('data', (chunk) => (returned ||= String(chunk).includes('done')));
    socket.on('close', () => {
      if (returned) return void idle.push(pooled);
      all.delete(launched);
      void quit(pooled);
    });
    socket.on('error', () => socket.destroy());
    socket.write(pooled.endpoint + '\n');
  };
  const server = createServer((socket) => void lend(socket).catch((error) => socket.destroy(error)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('firefoxPool', (server.address() as { port: number }).port);
  return async () => {
    server.close();
    const browsers = await Promise.allSettled(all);
    await Promise.all(browsers.map((b) => (b.status === 'fulfilled' ? quit(b.value) : undefined)));
  };
}
