// Historical call-log rows, for tests of the export's 6,500 cap, day splitting, filters and order.
// Deterministic (a fixed-seed generator), spread evenly over the period, every row finished.
import { newCall, recordingUrl } from './call-log.ts';
import type { AgentInfo, CallType, Disposition, SeedOptions, SimCall } from './types.ts';

/** Most rows one seedCalls (or POST /__sim/calls/seed) may add. */
export const MAX_SEED = 200_000;

/** mulberry32: tiny, fast, good enough to vary fake rows reproducibly. */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DISPOSITIONS: Disposition[] = ['ANSWERED', 'ANSWERED', 'ANSWERED', 'ANSWERED', 'NO ANSWER', 'CLIENT NO ANSWER', 'BUSY', 'REPEATED'];
const CALL_TYPES: CallType[] = ['in', 'in', 'callback', 'out'];
const SOURCES = [
  { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'brand' },
  { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'generic' },
  { utmSource: 'facebook', utmMedium: 'paid_social', utmCampaign: 'spring' },
  { utmSource: '(direct)', utmMedium: '(none)', utmCampaign: '(direct)' },
];

export function seedRows(count: number, options: SeedOptions & { now: Date; officeLine: string; agents: AgentInfo[] }): SimCall[] {
  if (!Number.isInteger(count) || count < 0 || count > MAX_SEED) throw new Error(`seedCalls: count must be an integer 0..${MAX_SEED}`);
  const to = options.to ?? options.now;
  const from = options.from ?? new Date(to.getTime() - 24 * 60 * 60 * 1000);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || from > to) throw new Error('seedCalls: from must be a date not later than to');
  const span = to.getTime() - from.getTime();
  const random = generator(count * 7919 + Math.floor(from.getTime() / 1000));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

  const rows: SimCall[] = [];
  for (let i = 0; i < count; i++) {
    // Whole seconds, so inclusive second-resolution periods count each row exactly once.
    const at = new Date(Math.floor((from.getTime() + (count === 1 ? 0 : (span * i) / (count - 1))) / 1000) * 1000);
    const visitor = `38050${String(1_000_000 + Math.floor(random() * 8_999_999)).slice(0, 7)}`;
    const callType = pick(CALL_TYPES);
    const call = newCall({ origin: 'seed', callType, calldate: at, caller: visitor, dst: options.officeLine, visitor });
    const disposition = pick(DISPOSITIONS);
    const answered = disposition === 'ANSWERED';
    const agent = answered && options.agents.length > 0 ? pick(options.agents).login : null;
    Object.assign(call, pick(SOURCES), {
      state: 'ended',
      disposition,
      agent,
      connectedWith: agent ?? '',
      waittime: 2 + Math.floor(random() * 20),
      billsec: answered ? 5 + Math.floor(random() * 300) : 0,
      poolName: 'Site pool',
      landing: 'https://example.com/',
      clientIp: `198.51.100.${1 + Math.floor(random() * 250)}`,
      clientId: `${1_000_000_000 + Math.floor(random() * 999_999_999)}.${Math.floor(at.getTime() / 1000)}`,
    } satisfies Partial<SimCall>);
    call.duration = call.waittime + call.billsec;
    call.durationMs = call.duration * 1000 + Math.floor(random() * 1000);
    if (answered) {
      call.recording = recordingUrl(call.uniqueid);
      call.hasRecording = true;
    }
    Object.assign(call, options.overrides ?? {});
    rows.push(call);
  }
  return rows;
}
