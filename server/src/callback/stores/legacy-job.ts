// A job stored before stages existed said what it was doing with a `kind` ('scheduled', 'queued',
// 'redial', where 'redial' also meant "following a call the service took") and a JSON `notes`
// string. This reads such a Redis job hash into the fields of today's (the SQLite file is migrated
// by the same rules in SQL, storage/sqlite/schema/step-3.ts).

interface LegacyNotes {
  last?: { at?: number; result?: 'placed' | 'unknown' };
  retriedUnknown?: boolean;
  redials?: number;
  queuedAt?: number;
  unreachable?: number;
  scheduledFor?: number;
  dueSince?: number;
}

function parseNotes(notes: string | undefined): LegacyNotes {
  if (!notes) return {};
  try {
    const parsed = JSON.parse(notes) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as LegacyNotes) : {};
  } catch {
    return {};
  }
}

const numberOr = (value: unknown, fallback: number | ''): number | '' => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);

/** The stage, how the lead came in and the progress fields of a legacy job hash, as strings ('' for none). */
export function legacyJobFields(h: Record<string, string>): Record<string, string> {
  const notes = parseNotes(h.notes);
  const kind = h.kind;
  const scheduledFor = numberOr(notes.scheduledFor, kind === 'scheduled' ? Number(h.due) : '');
  const queuedAt = numberOr(notes.queuedAt, kind === 'queued' ? Number(h.created) : '');
  const requestedAs = scheduledFor !== '' ? 'scheduled' : queuedAt !== '' ? 'queued' : 'now';
  const fields: Record<string, string | number> = {
    requestedAs,
    stage: legacyStage(h.state, h.outcome, kind, notes),
    scheduledFor,
    queuedAt,
    unreachable: numberOr(notes.unreachable, 0),
    lastAttempt: numberOr(notes.last?.at, ''),
    retriedUnknown: notes.retriedUnknown ? '1' : '0',
    redials: numberOr(notes.redials, 0),
    dueSince: numberOr(notes.dueSince, ''),
    // A call placed at once never handed its cancel token to anyone.
    ...(requestedAs === 'now' && { cancel: '' }),
  };
  return Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, String(value)]));
}

function legacyStage(state: string | undefined, outcome: string | undefined, kind: string | undefined, notes: LegacyNotes): string {
  if (state === 'failed' || state === 'cancelled') return state;
  if (state === 'completed') return outcome === 'answered' || outcome === 'missed' ? outcome : 'ended';
  if (notes.last?.result === 'placed') return 'following';
  if (notes.last?.result === 'unknown') return 'checking';
  return kind === 'queued' || kind === 'redial' ? kind : 'scheduled';
}
