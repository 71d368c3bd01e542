// One HTTP request with exactly the headers a test names, Host included (fetch sets Host, Origin
// and Sec-Fetch-* itself, or refuses them): what a browser on another page, or a DNS-rebound name,
// sends to the relay.
import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Send no Host header at all (HTTP/1.0 style). */
  noHost?: boolean;
}

export function rawRequest(baseUrl: string, path: string, options: RawOptions = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port: Number(port), method: options.method ?? 'GET', path, headers: options.headers ?? {}, setHost: !options.noHost });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}
