// What the daily digest counts: each lead of the last days with its utm source and where it stands
// (no number, not even masked). Every step of a lead writes its current standing over the last one
// (a step told twice writes the same), and the digest counts the leads requested in its 24 hours by
// source and standing. Kept a week (a digest counts one day; a relay down for days still finds its
// last one). Memory here; SQLite and Redis beside it.

export type TallyOutcome = 'pending' | 'answered' | 'missed' | 'failed' | 'other';

export interface TalliedLead {
  callbackId: string;
  /** When the visitor asked. */
  createdAt: number;
  utmSource: string | null;
  outcome: TallyOutcome;
}

export interface TallyRow {
  source: string | null;
  outcome: TallyOutcome;
  count: number;
}

export interface LeadTally {
  /** Writes the lead's standing now (and forgets leads past the week). */
  record(lead: TalliedLead, nowMs: number): Promise<void>;
  /** Leads requested in [fromMs, toMs), by source and standing. */
  count(fromMs: number, toMs: number): Promise<TallyRow[]>;
}

export const TALLY_KEEP_MS = 7 * 86_400_000;
/** The longest source kept: a visitor writes it (?utm_source=…). */
export const SOURCE_MAX = 100;
export const sourceOf = (utmSource: string | null | undefined): string | null => (utmSource ? utmSource.slice(0, SOURCE_MAX) : null);

/** Rows of (source, outcome) pairs summed: what every adapter's count returns. */
export function sumRows(leads: Iterable<Pick<TalliedLead, 'utmSource' | 'outcome'>>): TallyRow[] {
  const rows = new Map<string, TallyRow>();
  for (const lead of leads) {
    const key = `${lead.utmSource ?? ''}\0${lead.outcome}`;
    const row = rows.get(key);
    if (row) row.count++;
    else rows.set(key, { source: lead.utmSource, outcome: lead.outcome, count: 1 });
  }
  return [...rows.values()];
}

export function createMemoryLeadTally(): LeadTally {
  const leads = new Map<string, TalliedLead>();
  return {
    async record(lead, nowMs) {
      const kept = leads.get(lead.callbackId);
      leads.set(lead.callbackId, { ...lead, createdAt: kept?.createdAt ?? lead.createdAt, utmSource: sourceOf(lead.utmSource) });
      for (const [id, l] of leads) if (l.createdAt < nowMs - TALLY_KEEP_MS) leads.delete(id);
    },
    async count(fromMs, toMs) {
      return sumRows([...leads.values()].filter((l) => l.createdAt >= fromMs && l.createdAt < toMs));
    },
  };
}
