// The owner view: `/owner` (the page), `/owner/owner.js` and `/owner/owner.css` (the Preact app
// `npm run build` writes to OWNER_DIR, demo/owner/ in the source), and the JSON it polls:
// `/owner/api/view` (the project's time zone and today), `/owner/api/agents` (who is online,
// speaking, free) and `/owner/api/calls` (latest calls and calls per day by utm source). Served in demo mode or with OWNER_TOKEN; who may see what, and
// which requests may change anything, is owner-access/access.ts, applied by the relay from each route's `access` before any handler. Nothing
// here reads the Auth-key: the page gets agents' logins, masked numbers and attribution only.
import { RelayError } from '../contract/errors.ts';
import { json } from '../http/reply.ts';
import type { Handler } from '../http/router.ts';
import { createOwnerAccess } from '../owner-access/access.ts';
import { createOwnerCalls } from '../owner/owner-calls.ts';
import type { RouteModule } from './index.ts';
import { ownerReportRoutes } from './owner-report.ts';
import { ownerActionRoutes } from './owner-actions.ts';
import { cancelCallback } from '../callback/use-cases/cancel-callback.ts';
import { loadStaticSet, type StaticSet } from '../http/static-files.ts';
import { localDay } from '../schedule/zoned.ts';

/** The page runs only its own script and styles (no inline script or style: uPlot sets its
 * element styles through the DOM, which style-src 'self' allows) and talks only
 * to this relay; nobody may frame it. */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};
const API_HEADERS = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

/** The built owner view (OWNER_DIR), read and compressed on first use only. */
export const ownerRoutes: RouteModule = (app) => {
  const access = createOwnerAccess({ config: app.config, limits: app.stores.limits, now: () => app.now().getTime(), log: app.log });
  if (!access.enabled) return [];
  let built: StaticSet | undefined;
  const files = () => {
    if (built) return built;
    built = loadStaticSet(app.config.owner.dir);
    if (!built.paths.includes('index.html')) app.log.warn('owner view not built: /owner will answer 404 until `npm run build` has run', { ownerDir: app.config.owner.dir });
    return built;
  };
  const calls = createOwnerCalls({ client: app.client, accepted: app.accepted, timeZone: app.config.service.timeZone, log: app.log, now: app.now });
  app.copies.hold('owner call log', (erased) => calls.forgetNumber(erased));

  const file =
    (name: string, headers: Record<string, string>): Handler =>
    (rc) => {
      const reply = files().reply(rc.req, name, headers);
      if (!reply) throw new RelayError('not_found', 'The owner view is not built (run `npm run build`).');
      return reply;
    };
  // The page's fixed facts: every time it shows is in the project's zone, and its periods are
  // counted from the project's today by the relay's clock, not the browser's.
  const view: Handler = () => {
    const timeZone = app.config.service.timeZone;
    return json(200, { timeZone, today: localDay(app.now(), timeZone) }, API_HEADERS);
  };

  const agents: Handler = async () => {
    const s = await app.agents.get();
    const online = new Set(s.online);
    const speaking = new Set(s.speaking);
    const free = new Set(s.free);
    const logins = [...new Set([...s.online, ...s.speaking])].sort();
    return json(
      200,
      {
        agents: logins.map((login) => ({ login, online: online.has(login), speaking: speaking.has(login), free: free.has(login) })),
        online: s.online.length,
        speaking: s.speaking.length,
        free: s.free.length,
        source: s.source,
        fetchedAt: new Date(s.fetchedAt).toISOString(),
      },
      API_HEADERS,
    );
  };

  // The page answer starts a session when its request gave the token (never when the cookie did: a session is not renewed).
  const page: Handler = (rc) => {
    const cookie = access.sessionCookie(rc.req);
    return file('index.html', cookie === null ? PAGE_HEADERS : { ...PAGE_HEADERS, 'set-cookie': cookie })(rc);
  };
  const { resource } = access;
  return [
    { path: '/owner', origin: 'none', access: access.page, methods: { GET: page } },
    // Revalidated with their ETags at each load: a new build shows at once, an unchanged one costs a 304.
    { path: /^\/owner\/(?<file>owner\.(?:js|css))$/, origin: 'none', access: resource, methods: { GET: (rc) => file(rc.params.file!, { 'cache-control': 'no-cache' })(rc) } },
    { path: '/owner/api/view', origin: 'none', access: resource, methods: { GET: view } },
    { path: '/owner/api/agents', origin: 'none', access: resource, methods: { GET: agents } },
    { path: '/owner/api/calls', origin: 'none', access: resource, methods: { GET: async () => json(200, await calls.get(), API_HEADERS) } },
    ...ownerReportRoutes(app, resource, API_HEADERS),
    ...ownerActionRoutes(app, resource, API_HEADERS),
    // The owner cancels a held call without the visitor's token: the owner view's own access
    // (the token header, or the session cookie with the browser's word that the view sent it) authorises it.
    {
      path: /^\/owner\/api\/leads\/(?<callbackId>[0-9a-f-]{36})\/cancel$/,
      origin: 'none',
      access: resource,
      methods: {
        POST: async (rc) => {
          const job = await app.stores.jobs.get(rc.params.callbackId!);
          return json(200, await cancelCallback(app, rc.params.callbackId!, job?.request.origin ?? null, null), API_HEADERS);
        },
      },
    },
    // Any other path under /owner: the same 404 for every method, token or not.
  ];
};
