// One day of the report grouped in JavaScript: what a store's dayTop and dayGroups answer, for the
// memory store (SQLite and Redis do the same in SQL and Lua, next to their data). A lead counts by
// the rules in lead-report.ts; the owner's own call-backs count from `placed` on.
import type { DayQuery, DayTop, LeadFact, OpenCount } from './report-store.ts';
import { WITHOUT_CONSENT } from '../tracking-consent/snapshot.ts';
import { byLeadsThenOpens, emptySum, firstOf, type KeyTally, type Sum } from './tally.ts';

function addLead(sum: Sum, f: LeadFact, talkSeconds: number): void {
  if (f.requestedAs !== 'owner') sum.requested++;
  if (f.requestedAs !== 'owner' && (WITHOUT_CONSENT as readonly string[]).includes(f.consent)) sum.noConsent++;
  if (f.placed) sum.placed++;
  if (f.outcome === 'answered') {
    sum.answered++;
    if ((f.talkSeconds ?? 0) >= talkSeconds) sum.talked++;
    if (f.answerSeconds !== null) sum.answers.set(f.answerSeconds, (sum.answers.get(f.answerSeconds) ?? 0) + 1);
  }
  if (f.outcome === 'missed') sum.missed++;
  if (f.outcome === 'failed') sum.failed++;
}

export interface DayGroups {
  groups: Map<string, Sum>;
  total: Sum;
}

/** The day's groups: `opens` of q.day and the `leads` asked for within [q.fromMs, q.toMs). */
export function groupDay(opens: Iterable<OpenCount>, leads: Iterable<LeadFact>, q: DayQuery): DayGroups {
  const groups = new Map<string, Sum>();
  const total = emptySum();
  const group = (key: string) => {
    let g = groups.get(key);
    if (!g) groups.set(key, (g = emptySum()));
    return g;
  };
  for (const o of opens) {
    group(o[q.by]).opened += o.count;
    total.opened += o.count;
  }
  for (const f of leads) {
    addLead(group(f[q.by]), f, q.talkSeconds);
    addLead(total, f, q.talkSeconds);
  }
  return { groups, total };
}

export const keyTally = (key: string, sum: Sum): KeyTally => {
  const { answers, ...counts } = sum;
  return { key, ...counts, answers: [...answers] };
};

export function topOfDay({ groups, total }: DayGroups, k: number): DayTop {
  const all = [...groups].map(([key, sum]) => ({ key, sum, ...sum }));
  all.sort(byLeadsThenOpens);
  const first = firstOf(all, k);
  const { answers, ...counts } = total;
  return { top: first.map((g) => keyTally(g.key, g.sum)), total: { ...counts, answers: [...answers] }, more: all.length > first.length };
}

export function groupsOfDay({ groups }: DayGroups, keys: readonly string[]): KeyTally[] {
  return [...new Set(keys)].flatMap((key) => {
    const sum = groups.get(key);
    return sum ? [keyTally(key, sum)] : [];
  });
}
