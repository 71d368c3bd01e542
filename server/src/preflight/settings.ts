// Settings that load without error yet are wrong for a relay on the internet: a public URL that
// browsers on https sites cannot use, a proxy in front whose address every visitor would share
// (TRUSTED_PROXIES missing: the per-client limits would then count everyone as one client), and
// sites allowed over plain http. (A weak owner token is refused with the settings themselves.)
import { isIP } from 'node:net';
import type { Config } from '../config/index.ts';
import { type Check, fail, pass } from './check.ts';

const isLoopback = (host: string) => {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || (isIP(bare) === 4 && bare.startsWith('127.'));
};

export function checkSettings(config: Config): Check[] {
  return [publicUrlCheck(config), proxyCheck(config), originsCheck(config), ownerTokenCheck(config)];
}

function publicUrlCheck(config: Config): Check {
  const url = new URL(config.http.publicUrl);
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && config.service.external) {
    return fail('public-url', `PUBLIC_URL is ${url.origin}: sites on https cannot load the widget from http; put the relay behind TLS and set PUBLIC_URL=https://…`);
  }
  return pass('public-url', `the widget and the owner view are served as ${url.origin}`);
}

function proxyCheck(config: Config): Check {
  const { host, publicUrl, trustedProxies } = config.http;
  const behindProxy = isLoopback(host) && !isLoopback(new URL(publicUrl).hostname);
  if (behindProxy && trustedProxies.size === 0) {
    return fail(
      'trusted-proxies',
      `the relay listens on ${host} and is reached as ${new URL(publicUrl).host}, so a proxy sits in front: set TRUSTED_PROXIES to its address (e.g. 127.0.0.1), or every visitor counts as the proxy's one client`,
    );
  }
  if (trustedProxies.size === 0) return pass('trusted-proxies', "none: each visitor is the connection's own address");
  return pass('trusted-proxies', `${trustedProxies.size} proxy address(es) believed in X-Forwarded-For`);
}

function originsCheck(config: Config): Check {
  const plain = config.http.allowedOrigins.filter((o) => o.startsWith('http:') && !isLoopback(new URL(o).hostname));
  if (plain.length > 0 && config.service.external) {
    return fail('allowed-origins', `ALLOWED_ORIGINS has plain-http sites (${plain.join(', ')}): a visitor's number would cross the network unencrypted; use their https origins`);
  }
  return pass('allowed-origins', `${config.http.allowedOrigins.length} site(s) may request calls`);
}

function ownerTokenCheck(config: Config): Check {
  const { token } = config.owner;
  if (token === null) return pass('owner-token', config.service.demo ? 'unset: the owner view is open in demo mode' : 'unset: there is no owner view');
  // A weak token never gets here: the settings refuse it (config/env-values.ts).
  return pass('owner-token', `${token.length} characters`);
}
