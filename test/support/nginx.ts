// A real nginx (Debian's) for a test: its own prefix directory, config, logs and temp paths, on a
// free loopback port, in the foreground, stopped by the test (and killed if the test process dies).
import { spawn, spawnSync } from 'node:child_process';
import { killOnExit } from './child-processes.ts';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './listen.ts';

const BINARY = process.env.NGINX_BIN ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx');

export interface Nginx {
  port: number;
  url: string;
  /** Its error log so far (upstream failures are written there). */
  errorLog(): string;
  stop(): Promise<void>;
}

const EXAMPLE = readFileSync(new URL('../../docs/examples/nginx-relays.conf', import.meta.url), 'utf8');

/**
 * The documented example (docs/examples/nginx-relays.conf) with a test's addresses: nginx on
 * `port`, the relays on `relayPorts`, and `allow` (when given) instead of the private range its
 * monitoring locations admit. Throws if a line it replaces is no longer in the example.
 */
export function relaysExample(port: number, relayPorts: readonly number[], options: { allow?: string } = {}): string {
  const swaps: Array<[RegExp, string]> = [
    [/ *server 10\.0\.0\.11:8080 max_fails=0;\n *server 10\.0\.0\.12:8080 max_fails=0;/, relayPorts.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join('\n')],
    [/listen 443 ssl http2;/, `listen 127.0.0.1:${port};`],
  ];
  if (options.allow) swaps.push([/allow 10\.0\.0\.0\/8;/g, `allow ${options.allow};`]);
  return swaps.reduce((text, [pattern, replacement]) => {
    if (!pattern.test(text)) throw new Error(`docs/examples/nginx-relays.conf no longer has ${pattern}`);
    return text.replace(pattern, replacement);
  }, EXAMPLE);
}

/** Throws with what to do when nginx is missing: the tests that need it never skip. */
function assertInstalled(): void {
  const probe = spawnSync(BINARY, ['-v'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(`nginx was not found (${BINARY}): this test puts a real nginx in front of relays. Install it with \`apt-get install nginx\` (or set NGINX_BIN).`);
  }
}

/**
 * Starts nginx with `http` (the text of an http {} block's contents) where every `{{port}}` is the
 * port nginx will listen on.
 */
export async function startNginx(http: (port: number) => string): Promise<Nginx> {
  assertInstalled();
  const dir = mkdtempSync(join(tmpdir(), 'dialback-nginx-'));
  mkdirSync(join(dir, 'tmp'));
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  const errorLog = join(dir, 'error.log');
  writeFileSync(
    conf,
    `daemon off;
master_process off;
pid ${join(dir, 'nginx.pid')};
error_log ${errorLog} warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${join(dir, 'tmp', 'body')};
  proxy_temp_path ${join(dir, 'tmp', 'proxy')};
  fastcgi_temp_path ${join(dir, 'tmp', 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'tmp', 'uwsgi')};
  scgi_temp_path ${join(dir, 'tmp', 'scgi')};
${http(port)}
}
`,
  );
  const child = spawn(BINARY, ['-p', dir, '-c', conf, '-e', errorLog], { stdio: ['ignore', 'pipe', 'pipe'] });
  killOnExit(child);
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const readLog = () => (existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '');

  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null) throw new Error(`nginx exited at start: ${output}${readLog()}`);
    if (Date.now() > deadline) throw new Error(`nginx did not listen within 10 s: ${output}${readLog()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    errorLog: readLog,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
