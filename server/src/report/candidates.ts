// The groups that may make a period's list, summed from each day's list as the days are read. A
// flood lists new groups every day (a year: 36,000 of them), so the set is cut back to its best
// 4 × `shown` whenever it passes 8 × `shown`: memory and the final sort stay small. Once a group
// has been cut, one that comes (back) later may have had days that were not summed: its `since`
// is the day it came, and the days before are read again for it if it is shown (lead-report.ts),
// so shown groups stay exact.
import { addInto, byLeadsThenOpens, countsOf, emptySum, firstOf, type Sum, type Tally } from './tally.ts';

interface Candidate {
  sum: Sum;
  /** The first day (index in the period) whose lists this sum holds all of. */
  since: number;
}

export function createCandidates(shown: number) {
  const kept = new Map<string, Candidate>();
  let cutBack = false;
  const ranked = () => [...kept].map(([key, c]) => ({ key, ...countsOf(c.sum) })).sort(byLeadsThenOpens);

  return {
    /** Adds a group's tally of day `day` (its index in the period). */
    add(key: string, tally: Tally, day: number): void {
      let c = kept.get(key);
      if (!c) kept.set(key, (c = { sum: emptySum(), since: cutBack ? day : 0 }));
      addInto(c.sum, tally);
      if (kept.size > 8 * shown) {
        cutBack = true;
        for (const out of ranked().slice(4 * shown)) kept.delete(out.key);
      }
    },
    /** The first `shown` groups by what is summed so far, less any that tie the first left out (firstOf). */
    choose: (): string[] => firstOf(ranked(), shown).map((g) => g.key),
    sum: (key: string): Sum => kept.get(key)!.sum,
    since: (key: string): number => kept.get(key)!.since,
  };
}
