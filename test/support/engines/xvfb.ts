// A virtual X display for browsers that need one (WebKitGTK's MiniBrowser has no headless mode under
// WebKitWebDriver). Xvfb picks a free display number itself (-displayfd), so parallel runs never clash.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface Display {
  /** The DISPLAY value, e.g. ":99". */
  name: string;
  stop(): Promise<void>;
}

export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function startXvfb(): Promise<Display> {
  const binary = process.env.XVFB_PATH ?? '/usr/bin/Xvfb';
  if (!existsSync(binary)) throw new Error("Xvfb not found: install Debian's `xvfb` package (see .ci/run) or set XVFB_PATH");
  // fd 3 receives the display number once the server accepts connections.
  const child = spawn(binary, ['-displayfd', '3', '-screen', '0', '1600x1200x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  const number = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdio[3]!.on('data', (chunk: Buffer) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`Xvfb exited with ${code} before it was ready: ${stderr.trim()}`)));
    child.once('error', reject);
  });
  return { name: `:${number}`, stop: () => stopProcess(child) };
}
