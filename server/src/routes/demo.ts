// GET / and GET /demo/<file>: the demo marketing page and its assets (demo mode only). The page
// embeds the widget with a plain script tag, exactly as a customer's site would. /demo/ serves no
// dotfile, and no owner.* file: the owner view (built to OWNER_DIR) is served only under /owner,
// with its own access rule and headers, and a stray copy left in the demo folder must not leak.
import { RelayError } from '../contract/errors.ts';
import type { Handler } from '../http/router.ts';
import type { StaticSet } from '../http/static-files.ts';
import type { RouteModule } from './index.ts';

/** A demo asset's name: a plain file name that is not a dotfile and not the owner view's. */
const DEMO_FILE = /^\/demo\/(?<file>(?!owner\.)\w[\w.-]*)$/;

function demoFile(demo: StaticSet, file: (params: Record<string, string>) => string): Handler {
  return ({ req, params }) => {
    const reply = demo.reply(req, file(params), { 'cache-control': 'no-cache' });
    if (!reply) throw new RelayError('not_found', 'No such demo file.');
    return reply;
  };
}

export const demoRoutes: RouteModule = (app, files) => {
  if (!app.config.service.demo) return [];
  const demo = files.demo();
  return [
    { path: '/', origin: 'none', methods: { GET: demoFile(demo, () => 'index.html') } },
    { path: DEMO_FILE, origin: 'none', methods: { GET: demoFile(demo, (p) => p.file!) } },
  ];
};
