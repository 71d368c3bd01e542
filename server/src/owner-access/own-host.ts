// Demo mode's owner view has no token: anyone who reaches the relay may use it, which is the point of
// a demo on one's own machine. What must not reach it is a page of some site that points a name of
// its own at the relay's address (DNS rebinding): to the browser that page is then the relay's
// "same origin", and it could read and act on the view. Its requests name that other host in Host,
// so the view answers only the relay's own names: PUBLIC_URL's host, the address the request came
// in on (what a browser opening http://127.0.0.1:8080 sends), and localhost on a loopback address
// (a rebinding page cannot be localhost). Browsers omit a default port; either form is taken.
import type { IncomingMessage } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';

const DEFAULT_PORT: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/** `host` as a Host header may write it: with its port, and bare too when the port is the scheme's default. */
const forms = (host: string, port: number, defaultPort: number) => (port === defaultPort ? [host, `${host}:${port}`] : [`${host}:${port}`]);

/** The names of the address a request came in on. */
function localNames(req: IncomingMessage): string[] {
  const { localAddress, localPort } = req.socket;
  if (!localAddress || !localPort) return [];
  const v4 = localAddress.startsWith('::ffff:') && isIPv4(localAddress.slice(7)) ? localAddress.slice(7) : null;
  const address = v4 ?? (isIPv6(localAddress) ? `[${localAddress}]` : localAddress);
  const loopback = address.startsWith('127.') || address === '[::1]';
  return (loopback ? [address, 'localhost'] : [address]).flatMap((name) => forms(name, localPort, 80));
}

/** Whether a request's Host is one of the relay's own names. */
export function ownHostCheck(publicUrl: string): (req: IncomingMessage) => boolean {
  const url = new URL(publicUrl);
  const publicHosts = new Set(forms(url.hostname.toLowerCase(), Number(url.port) || DEFAULT_PORT[url.protocol]!, DEFAULT_PORT[url.protocol]!));
  return (req) => {
    const host = req.headers.host?.toLowerCase();
    if (!host) return false;
    return publicHosts.has(host) || localNames(req).includes(host);
  };
}
