// What the report adds up for a group, a day or the period: the funnel's counts, and the answered
// leads' seconds to answer as a histogram ([seconds, how many] pairs), not one value per lead, so a
// median is exact and what a store sends for it stays as small as the distinct values.
export interface Counts {
  opened: number;
  requested: number;
  placed: number;
  answered: number;
  talked: number;
  missed: number;
  failed: number;
  /** Leads asked for without the visitor's analytics consent (declined, or not answered yet): the widget read no tracking cookie. */
  noConsent: number;
}

export const COUNT_NAMES = ['opened', 'requested', 'placed', 'answered', 'talked', 'missed', 'failed', 'noConsent'] as const satisfies readonly (keyof Counts)[];

/** Answered leads' seconds from the request to the start of talk: [seconds, how many]. */
export type Answers = Array<[seconds: number, count: number]>;

export interface Tally extends Counts {
  answers: Answers;
}

/** A group's tally: its key is the value of the report's dimension ('' when the visitor had none). */
export interface KeyTally extends Tally {
  key: string;
}

export const noCounts = (): Counts => ({ opened: 0, requested: 0, placed: 0, answered: 0, talked: 0, missed: 0, failed: 0, noConsent: 0 });

export const countsOf = (t: Counts): Counts => ({
  opened: t.opened,
  requested: t.requested,
  placed: t.placed,
  answered: t.answered,
  talked: t.talked,
  missed: t.missed,
  failed: t.failed,
  noConsent: t.noConsent,
});

/** A tally being summed: counts, and the histogram as a map. */
export interface Sum extends Counts {
  answers: Map<number, number>;
}

export const emptySum = (): Sum => ({ ...noCounts(), answers: new Map() });

/** Adds `t` into `sum` (sign -1: takes it out). */
export function addInto(sum: Sum, t: Tally | Sum, sign: 1 | -1 = 1): void {
  for (const c of COUNT_NAMES) sum[c] += sign * t[c];
  for (const [seconds, n] of t.answers) {
    const left = (sum.answers.get(seconds) ?? 0) + sign * n;
    if (left === 0) sum.answers.delete(seconds);
    else sum.answers.set(seconds, left);
  }
}

/** The median of a histogram, to 0.1 s; null when it is empty. */
export function medianOf(answers: ReadonlyMap<number, number>): number | null {
  const sorted = [...answers].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((s, [, n]) => s + n, 0);
  if (total === 0) return null;
  // The values at 0-based positions lo and hi (the same one when the count is odd).
  const lo = (total - 1) >> 1;
  const hi = total >> 1;
  let seen = 0;
  let low: number | null = null;
  for (const [seconds, n] of sorted) {
    if (low === null && lo < seen + n) low = seconds;
    if (hi < seen + n) return Math.round(((low! + seconds) / 2) * 10) / 10;
    seen += n;
  }
  return null;
}

/** The report's order of groups: most leads asked for, then most opens, then by key. */
export function byLeadsThenOpens(a: Counts & { key: string }, b: Counts & { key: string }): number {
  return b.requested - a.requested || b.opened - a.opened || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

const sameRank = (a: Counts, b: Counts) => a.requested === b.requested && a.opened === b.opened;

/**
 * The first `k` of groups in the report's order, less any that tie the first one left out: which of
 * equal groups is listed never hangs on their names, and a flood's thousands of one-open groups are
 * listed as none of them rather than as the hundred whose names sort first.
 */
export function firstOf<T extends Counts>(ranked: readonly T[], k: number): T[] {
  if (ranked.length <= k) return [...ranked];
  let n = k;
  while (n > 0 && sameRank(ranked[n - 1]!, ranked[k]!)) n--;
  return ranked.slice(0, n);
}
