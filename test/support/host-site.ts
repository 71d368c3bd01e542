// A third-party site for browser tests: its own node:http server on its own port (so a different
// origin from the relay), serving pages that embed widget.js with a plain script tag, exactly as a
// customer's site would, under demo/hostile.css.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { listen, type Listening } from './listen.ts';

const hostileCss = readFileSync(join(import.meta.dirname, '../../demo/hostile.css'), 'utf8');

export interface PageOptions {
  /** Base URL of the relay; widget.js comes from there. */
  relayUrl: string;
  /** data-* attributes of the script tag, without the `data-` prefix (default lang en, country UA). */
  data?: Record<string, string>;
  /** Extra markup before the script tag (e.g. the queue stub) and after it. */
  head?: string;
  body?: string;
  /** Content-Security-Policy header for the page. */
  csp?: string;
  /** Leave the script tag out (tests that insert it later). */
  noScript?: boolean;
  htmlLang?: string;
}

function scriptTag(relayUrl: string, data: Record<string, string> = {}): string {
  const attrs = Object.entries({ lang: 'en', country: 'UA', ...data })
    .map(([k, v]) => ` data-${k}="${v.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`)
    .join('');
  return `<script src="${relayUrl}/widget.js" async${attrs}></script>`;
}

function hostPage(options: PageOptions): string {
  return `<!doctype html>
<html lang="${options.htmlLang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme Plumbing</title>
<link rel="stylesheet" href="/hostile.css">
${options.head ?? ''}
</head>
<body>
<h1>Acme Plumbing</h1>
<p>We fix pipes. Really fast.</p>
<button type="button" id="host-button">A host button</button>
${options.body ?? ''}
${options.noScript ? '' : scriptTag(options.relayUrl, options.data)}
</body>
</html>`;
}

export interface HostSite extends Listening {
  /** Serves `html` at `path` (with the CSP header when given). */
  page(path: string, options: PageOptions): string;
}

export async function startHostSite(): Promise<HostSite> {
  const pages = new Map<string, { html: string; csp?: string }>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/hostile.css') {
      res.writeHead(200, { 'content-type': 'text/css' }).end(hostileCss);
      return;
    }
    const page = pages.get(path);
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
    if (page.csp) headers['content-security-policy'] = page.csp;
    res.writeHead(200, headers).end(page.html);
  });
  const listening = await listen(server);
  return {
    ...listening,
    page(path, options) {
      pages.set(path, { html: hostPage(options), ...(options.csp ? { csp: options.csp } : {}) });
      return listening.url + path;
    },
  };
}

/** A cookie value exactly as the call-tracking script writes it. */
export function trackingCookie(value: unknown): string {
  return encodeURIComponent(JSON.stringify(value));
}
