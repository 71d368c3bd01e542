// The system project's global setup: one relay start (its pre-flight, `--check`, against a service
// that is not there, so it exits at once) fills Node's compile cache with the relay's modules, which
// the relays the tests start then read instead of compiling them again (support/child-processes.ts).
import { spawnSync } from 'node:child_process';
import { COMPILE_CACHE_ENV } from '../support/child-processes.ts';

export default function warmCompileCache(): void {
  spawnSync(process.execPath, ['server/src/main.ts', '--check'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...COMPILE_CACHE_ENV,
      CALLTRACKING_BASE_URL: 'http://127.0.0.1:1',
      CALLTRACKING_AUTH_KEY: 'compile-cache-warm-up',
      CALLTRACKING_PROJECT_ID: '1',
      CALLBACK_CALLER: '380441234567',
      HASH_SECRET: 'compile-cache-warm-up-0123456789abcdef',
      ALLOWED_ORIGINS: 'https://shop.example',
    },
    stdio: 'ignore',
    timeout: 60_000,
  });
}
