// The dialog-open beacon (POST /api/opened): one open counted for its day and group, no more. No
// cookie is read or set, no address or number kept: the address only picks the limit keys (keyed
// hashes that expire within the hour). Each client (an IPv4 address, an IPv6 /64) counts at most
// OPENS_PER_CLIENT opens an hour and each of its networks (IPv4 /24, IPv6 /56 and /48)
// OPENS_PER_NETWORK, so a flood from one address or one network moves the counts by a handful.
import { z } from 'zod';
import { RelayError } from '../errors.ts';
import { clientKey } from '../limits/client-key.ts';
import { createLimitKeys } from '../limits/keys.ts';
import type { CountRule, LimitCheck, LimitStore } from '../limits/limit-store.ts';
import { networksOf } from '../limits/networks.ts';
import { worstOf } from '../limits/refusal.ts';
import { localDay } from '../schedule/zoned.ts';
import { visitorText } from '../visitor-text/schema.ts';
import { groupValues, type ReportStore } from './report-store.ts';

export const OPENS_PER_CLIENT = 6;
export const OPENS_PER_NETWORK = 30;
const HOUR = 3600;

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

export interface OpenCounter {
  /** Counts one open, or throws rate_limited when the client or a network of it has counted enough. */
  count(beacon: OpenBeacon, clientIp: string): Promise<void>;
}

export function createOpenCounter(deps: { report: ReportStore; limits: LimitStore; hashSecret: string; timeZone: string; now: () => number }): OpenCounter {
  const keys = createLimitKeys(deps.hashSecret);
  const clientRules: readonly CountRule[] = [{ reason: 'client_rate', limit: OPENS_PER_CLIENT, windowSec: HOUR, exact: true }];
  const networkRules: readonly CountRule[] = [{ reason: 'network_rate', limit: OPENS_PER_NETWORK, windowSec: HOUR, exact: true }];
  return {
    async count(beacon, clientIp) {
      const checks: LimitCheck[] = [
        { table: 'opens_client', key: keys.one('opens_client', clientKey(clientIp)), counts: clientRules },
        ...networksOf(clientIp).map((n): LimitCheck => ({ table: `opens_network_${n.size}`, key: keys.one('opens_network', n.prefix), counts: networkRules })),
      ];
      const at = deps.now();
      const decision = await deps.limits.consume(checks, at);
      if (!decision.ok) {
        const { retryAfter } = worstOf(decision.refusals);
        throw new RelayError('rate_limited', 'Too many opens counted from here for now.', { retryAfter });
      }
      const group = groupValues({ source: beacon.utmSource, medium: beacon.utmMedium, campaign: beacon.utmCampaign, department: beacon.department, page: beacon.page });
      await deps.report.countOpen(localDay(new Date(at), deps.timeZone), group);
    },
  };
}
