// Where a browser's request to the owner view came from. The session cookie is SameSite=Strict, but
// a "site" is the registrable domain: a page on blog.example.com makes the owner's browser send the
// cookie of calls.example.com with a form or a no-cors fetch. So the cookie says who, never that
// the owner view itself asked. What does:
//   - `Sec-Fetch-Site` (Fetch Metadata), which a page cannot set or forge: same-origin is the view;
//     browsers send it to https and loopback origins;
//   - without it (older browsers, plain http to another host), the `Origin` header, which browsers
//     send with every request that is not a GET or HEAD: one of the relay's own origins is the view.
// A script sends the token header instead, which no other page can add without a preflight.
import type { IncomingMessage } from 'node:http';

/** May this request change something: does the browser say the relay's own page sent it? */
export function fromOwnPage(req: IncomingMessage, isOwnOrigin: (origin: string) => boolean): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = req.headers.origin;
  return typeof origin === 'string' && isOwnOrigin(origin);
}

/**
 * May this request read: refused only when the browser says a page of another origin or site sent
 * it (a page of the same site making the owner's browser fetch the year's report again and again).
 * `none` is the owner's own address bar or bookmark; no header at all, a script or an older browser.
 */
export function notFromElsewhere(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}
