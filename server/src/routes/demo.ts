// GET / and GET /demo/<file>: the demo marketing page and its assets (demo mode only). The page
// embeds the widget with a plain script tag, exactly as a customer's site would.
import { RelayError } from '../errors.ts';
import type { Handler } from '../http/router.ts';
import type { StaticSet } from '../http/static-files.ts';

export function demoRoute(demo: StaticSet, file: (params: Record<string, string>) => string): Handler {
  return ({ req, params }) => {
    const reply = demo.reply(req, file(params), { 'cache-control': 'no-cache' });
    if (!reply) throw new RelayError('not_found', 'No such demo file.');
    return reply;
  };
}
