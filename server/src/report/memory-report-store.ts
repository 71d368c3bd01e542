// ReportStore in memory: tests, benchmarks, and the relay without a store.
import { collectMatches, erasedGroup, matchesOf } from './erase-values.ts';
import { MAX_OPEN_GROUPS_PER_DAY, OTHER_GROUP, REPORT_DIMENSIONS, type LeadFact, type OpenCount, type ReportGroupValues, type ReportStore } from './report-store.ts';

const groupKey = (g: ReportGroupValues) => JSON.stringify(REPORT_DIMENSIONS.map((d) => g[d]));

export function createMemoryReportStore(): ReportStore {
  const facts = new Map<string, LeadFact>();
  const opens = new Map<string, Map<string, OpenCount>>();
  return {
    async addLead(fact) {
      if (!facts.has(fact.callbackId)) facts.set(fact.callbackId, { ...fact, placed: false, outcome: null, answerSeconds: null, talkSeconds: null });
    },
    async markPlaced(callbackId) {
      const fact = facts.get(callbackId);
      if (fact) fact.placed = true;
    },
    async finish(callbackId, outcome, call) {
      const fact = facts.get(callbackId);
      if (!fact || fact.outcome !== null) return;
      fact.outcome = outcome;
      fact.answerSeconds = call?.answerSeconds ?? null;
      fact.talkSeconds = call?.talkSeconds ?? null;
    },
    async leads(fromMs, toMs) {
      return [...facts.values()].filter((f) => f.at >= fromMs && f.at < toMs).map((f) => ({ ...f }));
    },
    async countOpen(day, group) {
      let ofDay = opens.get(day);
      if (!ofDay) opens.set(day, (ofDay = new Map()));
      const g = ofDay.has(groupKey(group)) || ofDay.size < MAX_OPEN_GROUPS_PER_DAY ? group : OTHER_GROUP;
      const key = groupKey(g);
      const entry = ofDay.get(key) ?? { ...g, day, count: 0 };
      entry.count++;
      ofDay.set(key, entry);
    },
    async opens(fromDay, toDay) {
      return [...opens.entries()].filter(([day]) => day >= fromDay && day <= toDay).flatMap(([, ofDay]) => [...ofDay.values()].map((o) => ({ ...o })));
    },
    findValues: (test, limit) =>
      collectMatches(
        [
          {
            leads: matchesOf(facts.values(), test),
            opens: matchesOf(
              [...opens.values()].flatMap((ofDay) => [...ofDay.values()]),
              test,
            ),
          },
        ],
        limit,
      ),
    async eraseValues(test) {
      const leads = matchesOf(facts.values(), test);
      for (const [fact, fields] of leads) Object.assign(fact, erasedGroup(fact, fields));
      let erasedOpens = 0;
      for (const [day, ofDay] of opens) {
        for (const [open, fields] of matchesOf([...ofDay.values()], test)) {
          ofDay.delete(groupKey(open));
          const g = erasedGroup(open, fields);
          const into = ofDay.get(groupKey(g)) ?? { ...g, day, count: 0 };
          into.count += open.count;
          ofDay.set(groupKey(g), into);
          erasedOpens++;
        }
      }
      return { leads: leads.length, opens: erasedOpens };
    },
  };
}
