// The owner view: `/owner` (the page), `/owner/<asset>` (its script and styles), and the JSON it
// polls: `/owner/api/agents` (who is online, speaking, free) and `/owner/api/calls` (latest calls and
// calls per day by utm source). Served in demo mode or with OWNER_TOKEN; who may see what is
// owner/owner-access.ts, applied by the relay from each route's `access` before any handler. Nothing
// here reads the Auth-key: the page gets agents' logins, masked numbers and attribution only.
import { RelayError } from '../errors.ts';
import { json } from '../http/reply.ts';
import type { Handler } from '../http/router.ts';
import type { IncomingMessage } from 'node:http';
import { createOwnerAccess } from '../owner/owner-access.ts';
import { createOwnerCalls } from '../owner/owner-calls.ts';
import type { RouteModule } from './index.ts';
import { ownerReportRoutes } from './owner-report.ts';
import { ownerActionRoutes } from './owner-actions.ts';
import { cancelCallback } from '../callback/cancel-callback.ts';

/** The page runs only its own script and talks only to this relay; nobody may frame it. */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};
const API_HEADERS = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

/** The owner view lives in the demo folder (owner.html and its script), loaded once and shared with the demo pages. */
export const ownerRoutes: RouteModule = (app, relayFiles) => {
  const access = createOwnerAccess(app.config);
  if (!access.enabled) return [];
  const files = relayFiles.demo();
  if (!files.paths.includes('owner.html')) app.log.warn('owner view: owner.html not found; /owner will answer 404', { demoDir: app.config.http.demoDir });
  const calls = createOwnerCalls({ client: app.client, accepted: app.accepted, timeZone: app.config.service.timeZone, log: app.log, now: app.now });

  const file =
    (name: string, headers: Record<string, string>): Handler =>
    (rc) => {
      const reply = files.reply(rc.req, name, headers);
      if (!reply) throw new RelayError('not_found', 'The owner view is not installed (demo/owner.html is missing).');
      return reply;
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

  const pageHeaders = access.sessionCookie === null ? PAGE_HEADERS : { ...PAGE_HEADERS, 'set-cookie': access.sessionCookie };
  const page = (req: IncomingMessage, url: URL) => access.page(req, url);
  const resource = (req: IncomingMessage) => access.resource(req);
  return [
    { path: '/owner', origin: 'none', access: page, methods: { GET: file('owner.html', pageHeaders) } },
    { path: /^\/owner\/(?<file>owner\.(?:js|css))$/, origin: 'none', access: resource, methods: { GET: (rc) => file(rc.params.file!, { 'cache-control': 'no-store' })(rc) } },
    { path: '/owner/api/agents', origin: 'none', access: resource, methods: { GET: agents } },
    { path: '/owner/api/calls', origin: 'none', access: resource, methods: { GET: async () => json(200, await calls.get(), API_HEADERS) } },
    ...ownerReportRoutes(app, resource, API_HEADERS),
    ...ownerActionRoutes(app, resource, API_HEADERS),
    // The owner cancels a held call without the visitor's token: the owner view's own access
    // (a header, or the SameSite=Strict cookie no other site's form can send) authorises it.
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
