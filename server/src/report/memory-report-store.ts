// ReportStore in memory: tests, benchmarks, and the relay without a store.
import {
  LEAD_GROUP_DAYS,
  MAX_OPEN_GROUPS_PER_DAY,
  OTHER_GROUP,
  REPORT_DIMENSIONS,
  type LeadFact,
  type OpenCount,
  type ReportGroupValues,
  type ReportStore,
} from './report-store.ts';

const groupKey = (g: ReportGroupValues) => JSON.stringify(REPORT_DIMENSIONS.map((d) => g[d]));

export function createMemoryReportStore(options: { now?: () => number } = {}): ReportStore {
  const now = options.now ?? Date.now;
  const facts = new Map<string, LeadFact>();
  const opens = new Map<string, Map<string, OpenCount>>();
  /** Each group's newest lead, ms: its opens always have room (LEAD_GROUP_DAYS). */
  const leadGroups = new Map<string, number>();
  return {
    async addLead(fact) {
      if (facts.has(fact.callbackId)) return;
      facts.set(fact.callbackId, { ...fact, consent: fact.consent ?? '', placed: false, outcome: null, answerSeconds: null, talkSeconds: null });
      const key = groupKey(fact);
      leadGroups.set(key, Math.max(leadGroups.get(key) ?? 0, fact.at));
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
    async countOpen(day, group, newGroup) {
      let ofDay = opens.get(day);
      if (!ofDay) opens.set(day, (ofDay = new Map()));
      let key = groupKey(group);
      let g = group;
      const own = ofDay.has(key) || (leadGroups.get(key) ?? -Infinity) >= now() - LEAD_GROUP_DAYS * 86_400_000;
      if (!own) {
        if (newGroup === 'ask') return false;
        if (newGroup === 'other' || ofDay.size >= MAX_OPEN_GROUPS_PER_DAY) key = groupKey((g = OTHER_GROUP));
      }
      const entry = ofDay.get(key) ?? { ...g, day, count: 0 };
      entry.count++;
      ofDay.set(key, entry);
      return true;
    },
    async opens(fromDay, toDay) {
      return [...opens.entries()].filter(([day]) => day >= fromDay && day <= toDay).flatMap(([, ofDay]) => [...ofDay.values()].map((o) => ({ ...o })));
    },
  };
}
