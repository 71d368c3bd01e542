// A /healthz probe in a process of its own, as a load balancer's: it asks every `everyMs` by its
// own clock, whether the last answer came or not, so a request that arrives while the relay's event
// loop is held waits for the whole hold, and its latency says so. (A probe in the relay's own
// process cannot ask while the loop is held, and so never sees the longest waits.)
import { spawn } from 'node:child_process';

const SOURCE = `
const [url, every] = process.argv.slice(1);
const times = [];
let pending = 0;
let stopping = false;
const done = () => { if (stopping && pending === 0) { process.stdout.write(JSON.stringify(times)); process.exit(0); } };
const timer = setInterval(() => {
  const started = performance.now();
  pending++;
  fetch(url).then((r) => r.arrayBuffer()).then(
    () => { times.push(performance.now() - started); pending--; done(); },
    () => { times.push(-1); pending--; done(); },
  );
}, Number(every));
process.stdin.on('data', () => { clearInterval(timer); stopping = true; done(); });
`;

export interface Probe {
  /** Stops asking, waits for the answers still due: each latency in ms (-1: no answer). */
  stop(): Promise<number[]>;
}

export function startHealthzProbe(relayUrl: string, everyMs = 5): Promise<Probe> {
  const child = spawn(process.execPath, ['-e', SOURCE, `${relayUrl}/healthz`, String(everyMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number[]>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as number[]) : reject(new Error(`the probe exited ${code}`)))),
  );
  return new Promise((resolve, reject) => {
    child.once('spawn', () => {
      const stop = () => {
        child.stdin.end('stop');
        return exited;
      };
      // A few answers before the caller starts, so the process and its first connection are warm.
      setTimeout(() => resolve({ stop }), 300);
    });
    child.once('error', reject);
  });
}
