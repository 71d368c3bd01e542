// GET /widget.js and GET /chunks/<file>: the embed script and its lazily loaded parts.
// widget.js keeps one URL forever, so it is cached briefly and revalidated; chunks have content
// hashes in their names and are cached for a year. Chunks are loaded with import(), a CORS fetch,
// from the customers' pages: hence Access-Control-Allow-Origin: * (they are public files).
import { RelayError } from '../contract/errors.ts';
import type { Handler } from '../http/router.ts';
import type { RouteModule } from './index.ts';
import type { StaticSet } from '../http/static-files.ts';

const shared = {
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
};

function notBuilt(): RelayError {
  return new RelayError('temporarily_unavailable', 'The widget is not built on this server (run `npm run build`).');
}

function widgetScript(widget: StaticSet): Handler {
  return (rc) => {
    const { req } = rc;
    // Every page view with the widget asks for it: under a flood, its lines may share a summary.
    rc.repeatable = true;
    const reply = widget.reply(req, 'widget.js', { ...shared, 'cache-control': 'public, max-age=300, stale-while-revalidate=86400' });
    if (!reply) throw notBuilt();
    return reply;
  };
}

function widgetChunk(widget: StaticSet): Handler {
  return (rc) => {
    const { req, params } = rc;
    rc.repeatable = true;
    const reply = widget.reply(req, `chunks/${params.file}`, { ...shared, 'cache-control': 'public, max-age=31536000, immutable' });
    if (!reply) throw new RelayError('not_found', 'No such widget file; the page may hold an old copy of widget.js.');
    return reply;
  };
}

/** Public files for any page: no origin rule (they carry `Access-Control-Allow-Origin: *`). */
export const assetRoutes: RouteModule = (_app, files) => [
  { path: '/widget.js', origin: 'none', methods: { GET: widgetScript(files.widget) } },
  // A chunk name is a file name of the build, never a dotfile or a path.
  { path: /^\/chunks\/(?<file>\w[\w.-]*)$/, origin: 'none', methods: { GET: widgetChunk(files.widget) } },
];
