// The owner view: `/owner` (the page), `/owner/<asset>` (its script and styles), and the JSON it
// polls: `/owner/api/agents` (who is online, speaking, free) and `/owner/api/calls` (latest calls and
// calls per day by utm source). Served in demo mode or with OWNER_TOKEN (owner-access.ts). Nothing
// here reads the Auth-key: the page gets agents' logins, masked numbers and attribution only.
import type { AppContext } from '../app-context.ts';
import { RelayError } from '../errors.ts';
import { json } from '../http/reply.ts';
import type { Handler, Route } from '../http/router.ts';
import type { StaticSet } from '../http/static-files.ts';
import { createOwnerAccess } from '../owner/owner-access.ts';
import { createOwnerCalls } from '../owner/owner-calls.ts';

/** The page runs only its own script and talks only to this relay; nobody may frame it. */
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};
const API_HEADERS = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

/** `demoFiles`: the demo folder, where owner.html and its script live (loaded once, shared with the demo pages). */
export function ownerRoutes(app: AppContext, demoFiles: () => StaticSet): Route[] {
  const access = createOwnerAccess(app.config);
  if (!access.enabled) return [];
  const files = demoFiles();
  if (!files.paths.includes('owner.html')) app.log.warn('owner view: owner.html not found; /owner will answer 404', { demoDir: app.config.demoDir });
  const calls = createOwnerCalls({ client: app.client, accepted: app.accepted, timeZone: app.config.calltracking.timeZone, log: app.log, now: app.now });

  const guarded =
    (handler: Handler): Handler =>
    (rc) => {
      access.check(rc.req, rc.url);
      return handler(rc);
    };
  const file = (name: string, headers: Record<string, string>): Handler => (rc) => {
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

  return [
    { path: '/owner', methods: { GET: guarded(file('owner.html', PAGE_HEADERS)) } },
    // The script and styles hold no data and no secret; the page's <script src> cannot send a token.
    { path: /^\/owner\/(?<file>owner\.(?:js|css))$/, methods: { GET: (rc) => file(rc.params.file!, { 'cache-control': 'no-cache' })(rc) } },
    { path: '/owner/api/agents', methods: { GET: guarded(agents) } },
    { path: '/owner/api/calls', methods: { GET: guarded(async () => json(200, await calls.get(), API_HEADERS)) } },
  ];
}
