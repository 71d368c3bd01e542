// Where the relay listens and whom it answers: PORT, HOST, PUBLIC_URL, ALLOWED_ORIGINS,
// TRUSTED_PROXIES, and the folders it serves files from (WIDGET_DIR, DEMO_DIR).
import { parseCidrList, type CidrList } from '../lib/cidr.ts';
import { type EnvReader, requiredError } from './env.ts';

export interface HttpSettings {
  port: number;
  host: string;
  /** The relay's public origin (default `http://HOST:PORT`). */
  publicUrl: string;
  /** Origins of the sites that embed the widget. */
  allowedOrigins: readonly string[];
  /** Proxies whose X-Forwarded-For is believed. */
  trustedProxies: CidrList;
  /** The built widget (dist/widget). */
  widgetDir: string;
  /** The demo page and the owner view's files. */
  demoDir: string;
}

/** `demo`: demo mode, where the relay's own page is the one site allowed by default. */
export function readHttp(env: EnvReader, { demo }: { demo: boolean }): HttpSettings {
  const port = env.whole('PORT', 0, 65535) ?? 8080;
  const host = env.text('HOST') ?? '127.0.0.1';
  const publicUrl = env.origin('PUBLIC_URL') ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const allowedOrigins = env.origins('ALLOWED_ORIGINS') ?? (demo ? [new URL(publicUrl).origin] : undefined);
  const trustedProxies = env.parsed('TRUSTED_PROXIES', parseCidrList, 'IP addresses or CIDRs separated by commas') ?? parseCidrList('');
  const widgetDir = env.text('WIDGET_DIR') ?? 'dist/widget';
  const demoDir = env.text('DEMO_DIR') ?? 'demo';
  if (!allowedOrigins) {
    throw requiredError('ALLOWED_ORIGINS', 'outside demo mode (comma-separated origins of the sites that embed the widget, e.g. https://shop.example.com)');
  }
  return { port, host, publicUrl, allowedOrigins, trustedProxies, widgetDir, demoDir };
}
