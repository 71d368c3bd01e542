// The dialog-open beacon (POST /api/opened): one open counted for its day and group, no more. No
// cookie is read or set, no address or number kept. The beacon is unauthenticated, so what it says is
// bounded per client and network (opens an hour, new groups a day); an open over any limit is simply
// not counted and answered like a counted one. The bounds: report/README.md.
import { z } from 'zod';
import { findDepartment, type DepartmentSettings } from '../departments/department.ts';
import { RelayError } from '../contract/errors.ts';
import { clientKey } from '../limits/client-key.ts';
import { createLimitKeys, type LimitKeys } from '../limits/keys.ts';
import type { CountRule, LimitCheck, LimitStore } from '../limits/limit-store.ts';
import { networksOf } from '../limits/networks.ts';
import { localDay } from '../schedule/zoned.ts';
import { visitorText } from '../visitor-text/schema.ts';
import { groupValues, type ReportStore } from './report-store.ts';

export const OPENS_PER_CLIENT = 6;
export const OPENS_PER_NETWORK = 30;
/** New groups a day one client or network may start: a visitor opens the dialog on a few pages, not on hundreds. */
export const OPEN_GROUPS_PER_CLIENT = 10;
export const OPEN_GROUPS_PER_NETWORK = 30;
const HOUR = 3600;
const DAY = 86_400;

const value = visitorText(200);
/** The beacon's body: the page's utm values, its path, the department shown; nothing else. Each value one clean line (visitor-text/). */
export const OpenBeacon = z
  .object({ utmSource: value, utmMedium: value, utmCampaign: value, page: visitorText(200).pipe(z.string().regex(/^\//)), department: visitorText(60) })
  .partial()
  .strict();
export type OpenBeacon = z.infer<typeof OpenBeacon>;

export function parseOpenBeacon(text: string): OpenBeacon {
  let body: unknown;
  try {
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new RelayError('invalid_request', 'The beacon body must be a small JSON object.');
  }
  const parsed = OpenBeacon.safeParse(body);
  if (parsed.success) return parsed.data;
  const field = parsed.error.issues[0]?.path.join('.') || undefined;
  throw new RelayError(
    'invalid_request',
    field ? `The beacon field "${field.slice(0, 40)}" is invalid.` : 'The beacon body must be a JSON object.',
    field ? { field: field.slice(0, 40) } : {},
  );
}

/** What became of an open: counted (under its group or as (other)), or not counted and why. */
export type OpenOutcome = 'counted' | 'unknown_department' | 'over_limit';

export interface OpenCounter {
  count(beacon: OpenBeacon, clientIp: string): Promise<OpenOutcome>;
}

interface Rules {
  client: readonly CountRule[];
  network: readonly CountRule[];
}

const openRules: Rules = {
  client: [{ reason: 'client_rate', limit: OPENS_PER_CLIENT, windowSec: HOUR, exact: true }],
  network: [{ reason: 'network_rate', limit: OPENS_PER_NETWORK, windowSec: HOUR, exact: true }],
};
const groupRules: Rules = {
  client: [{ reason: 'client_daily', limit: OPEN_GROUPS_PER_CLIENT, windowSec: DAY, exact: true }],
  network: [{ reason: 'network_daily', limit: OPEN_GROUPS_PER_NETWORK, windowSec: DAY, exact: true }],
};

/** The checks of one family of tables (`opens`, `open_groups`): the client's, and each of its networks'. */
function checksOf(keys: LimitKeys, family: string, clientIp: string, rules: Rules): LimitCheck[] {
  return [
    { table: `${family}_client`, key: keys.one(`${family}_client`, clientKey(clientIp)), counts: rules.client },
    ...networksOf(clientIp).map((n): LimitCheck => ({ table: `${family}_network_${n.size}`, key: keys.one(`${family}_network`, n.prefix), counts: rules.network })),
  ];
}

export function createOpenCounter(deps: {
  report: ReportStore;
  limits: LimitStore;
  hashSecret: string;
  timeZone: string;
  departments: DepartmentSettings;
  now: () => number;
}): OpenCounter {
  const keys = createLimitKeys(deps.hashSecret);
  return {
    async count(beacon, clientIp) {
      if (beacon.department && !findDepartment(deps.departments, beacon.department)) return 'unknown_department';
      const at = deps.now();
      if (!(await deps.limits.consume(checksOf(keys, 'opens', clientIp, openRules), at)).ok) return 'over_limit';
      const day = localDay(new Date(at), deps.timeZone);
      const group = groupValues({ source: beacon.utmSource, medium: beacon.utmMedium, campaign: beacon.utmCampaign, department: beacon.department, page: beacon.page });
      // Most opens fall in a group the day counts already (or one with a lead): counted at once.
      if (await deps.report.countOpen(day, group, 'ask')) return 'counted';
      const room = await deps.limits.consume(checksOf(keys, 'open_groups', clientIp, groupRules), at);
      await deps.report.countOpen(day, group, room.ok ? 'add' : 'other');
      return 'counted';
    },
  };
}
