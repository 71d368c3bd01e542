// A real WordPress for one test file: Debian's `wordpress` (6.1) copied into a temporary directory,
// MariaDB on a private socket there (no TCP port at all), and PHP's built-in server on a free
// loopback port, installed through WordPress's own wp_install() in PHP. Nothing outside the
// temporary directory is used or changed, and everything stops (and the directory goes) on close().
// Debian's package ships no theme: a minimal classic one (fixtures/wordpress/theme) is activated.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './listen.ts';

const run = promisify(execFile);
const WORDPRESS = process.env.WORDPRESS_DIR ?? '/usr/share/wordpress';
const MARIADBD = process.env.MARIADBD_PATH ?? '/usr/sbin/mariadbd';
const fixtures = join(import.meta.dirname, 'fixtures/wordpress');
const START_TIMEOUT_MS = 15_000;

export interface WordPress {
  /** http://127.0.0.1:<port> */
  url: string;
  admin: { user: string; password: string };
  subscriber: { user: string; password: string };
  /** One SQL statement on the site's database; the rows as tab-separated lines. */
  sql(query: string): Promise<string>;
  /** A must-use plugin from fixtures/wordpress/mu-plugins, in force from the next request on. */
  addMuPlugin(name: string): void;
  /** PHP's warnings and notices about `path` (from WordPress's debug log). */
  phpLogAbout(path: string): string[];
  close(): Promise<void>;
}

function missing(): string | undefined {
  if (!existsSync(join(WORDPRESS, 'wp-settings.php'))) return `WordPress was not found in ${WORDPRESS}: apt-get install wordpress (or set WORDPRESS_DIR)`;
  if (!existsSync(MARIADBD)) return `mariadbd was not found at ${MARIADBD}: apt-get install mariadb-server (or set MARIADBD_PATH)`;
  return undefined;
}

async function waitFor(what: string, ready: () => Promise<boolean> | boolean, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited at start: ${output().trim()}`);
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} was not ready within ${START_TIMEOUT_MS} ms: ${output().trim()}`);
}

/**
 * A server in a process group of its own: PHP's server forks its workers (PHP_CLI_SERVER_WORKERS),
 * which outlive a parent killed alone, so the whole group is stopped, at close() or at exit.
 */
const groups = new Set<number>();
process.once('exit', () => {
  for (const pid of groups) signalGroup(pid, 'SIGKILL');
});
function signalGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function started(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  groups.add(child.pid!);
  child.once('exit', () => signalGroup(child.pid!, 'SIGKILL')); // workers left behind by a parent that died
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

async function stop(child: ChildProcess): Promise<void> {
  const pid = child.pid!;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    signalGroup(pid, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
  signalGroup(pid, 'SIGKILL');
  groups.delete(pid);
}

function wpConfig(url: string, socket: string, debugLog: string): string {
  return `<?php
// Written by test/support/wordpress.ts for one test run.
define('DB_NAME', 'wordpress');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', ${JSON.stringify('localhost:' + socket)});
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
foreach (array('AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT') as $k) define($k, $k . ' of a test site');
$table_prefix = 'wp_';
define('WP_HOME', ${JSON.stringify(url)});
define('WP_SITEURL', ${JSON.stringify(url)});
define('WP_CONTENT_DIR', __DIR__ . '/wp-content');
// No network: nothing may wait on wordpress.org (updates, translations, the dashboard's news).
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_AUTO_UPDATE_CORE', false);
define('DISABLE_WP_CRON', true);
define('FS_METHOD', 'direct');
define('WP_DEBUG', true);
define('WP_DEBUG_DISPLAY', false);
define('WP_DEBUG_LOG', ${JSON.stringify(debugLog)});
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`;
}

const installScript = `<?php
define('WP_INSTALLING', true);
require $argv[1] . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
wp_install('Acme Plumbing', 'admin', 'admin@example.com', false, '', $argv[2]);
wp_insert_user(array('user_login' => 'visitor', 'user_pass' => $argv[3], 'user_email' => 'visitor@example.com', 'role' => 'subscriber'));
switch_theme('dialback-test');
echo get_option('stylesheet');
`;

/** `plugins`: folder name under wp-content/plugins → the plugin's source folder (copied, so deleting it in the admin deletes the copy). */
export async function startWordPress(options: { plugins: Record<string, string> }): Promise<WordPress> {
  const problem = missing();
  if (problem) throw new Error(problem);
  const dir = mkdtempSync(join(tmpdir(), 'dialback-wp-'));
  const socket = join(dir, 'mysql.sock');
  const debugLog = join(dir, 'debug.log');
  const site = join(dir, 'wp');
  const processes: ChildProcess[] = [];
  const close = async () => {
    for (const child of processes.reverse()) await stop(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await run('mariadb-install-db', [
      '--no-defaults',
      `--datadir=${join(dir, 'db')}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      '--user=' + (process.getuid?.() === 0 ? 'root' : (process.env.USER ?? 'root')),
    ]);
    const db = started(MARIADBD, [
      '--no-defaults',
      `--datadir=${join(dir, 'db')}`,
      `--socket=${socket}`,
      `--pid-file=${join(dir, 'mariadb.pid')}`,
      '--skip-networking',
      '--skip-grant-tables',
      '--skip-log-bin',
      '--innodb-buffer-pool-size=16M',
      ...(process.getuid?.() === 0 ? ['--user=root'] : []),
    ]);
    processes.push(db.child);
    const sql = async (query: string) => (await run('mariadb', ['--no-defaults', `--socket=${socket}`, '-u', 'root', '-N', '-B', '-e', query, 'wordpress'])).stdout;
    await waitFor('mariadbd', () => existsSync(socket), db.child, db.output);
    await run('mariadb', ['--no-defaults', `--socket=${socket}`, '-u', 'root', '-e', 'CREATE DATABASE wordpress']);

    cpSync(WORDPRESS, site, { recursive: true });
    cpSync(join(fixtures, 'theme'), join(site, 'wp-content/themes/dialback-test'), { recursive: true });
    mkdirSync(join(site, 'wp-content/mu-plugins'));
    copyFileSync(join(fixtures, 'mu-plugins/no-mail.php'), join(site, 'wp-content/mu-plugins/no-mail.php'));
    for (const [name, source] of Object.entries(options.plugins)) cpSync(source, join(site, 'wp-content/plugins', name), { recursive: true });

    // WordPress writes its address into every link, so PHP's server gets its port first: a free one,
    // and another if something took it in between. Several workers: a page's files load side by side.
    let url = '';
    for (let attempt = 1; !url; attempt++) {
      const port = await freePort();
      const web = started('php', ['-S', `127.0.0.1:${port}`, '-t', site], { ...process.env, PHP_CLI_SERVER_WORKERS: '4' });
      processes.push(web.child);
      try {
        await waitFor(
          'php -S',
          () =>
            fetch(`http://127.0.0.1:${port}/readme.html`).then(
              (r) => r.ok,
              () => false,
            ),
          web.child,
          web.output,
        );
        url = `http://127.0.0.1:${port}`;
      } catch (error) {
        if (attempt === 5) throw error;
      }
    }
    writeFileSync(join(site, 'wp-config.php'), wpConfig(url, socket, debugLog));
    const admin = { user: 'admin', password: 'admin password of a test site' };
    const subscriber = { user: 'visitor', password: 'visitor password of a test site' };
    writeFileSync(join(dir, 'install.php'), installScript);
    const installed = await run('php', [join(dir, 'install.php'), site, admin.password, subscriber.password]);
    if (installed.stdout.trim() !== 'dialback-test') throw new Error(`WordPress did not install: ${installed.stdout}${installed.stderr}`);

    return {
      url,
      admin,
      subscriber,
      sql,
      addMuPlugin: (name) => copyFileSync(join(fixtures, 'mu-plugins', name), join(site, 'wp-content/mu-plugins', basename(name))),
      phpLogAbout: (path) =>
        existsSync(debugLog)
          ? readFileSync(debugLog, 'utf8')
              .split('\n')
              .filter((line) => line.includes(path))
          : [],
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
