// ReportStore in memory: tests, benchmarks, and the relay without a store.
import { groupDay, groupsOfDay, topOfDay } from './day-tally.ts';
import { MAX_OPEN_GROUPS_PER_DAY, OTHER_GROUP, REPORT_DIMENSIONS, type LeadFact, type OpenCount, type ReportGroupValues, type ReportStore } from './report-store.ts';

const groupKey = (g: ReportGroupValues) => JSON.stringify(REPORT_DIMENSIONS.map((d) => g[d]));

export function createMemoryReportStore(): ReportStore {
  const facts = new Map<string, LeadFact>();
  // The facts by when they were asked for, oldest first: a period's leads are a slice of it.
  const byTime: LeadFact[] = [];
  const opens = new Map<string, Map<string, OpenCount>>();
  /** The index of the first fact asked for at or after `ms`. */
  const firstAt = (ms: number) => {
    let lo = 0;
    let hi = byTime.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byTime[mid]!.at < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const inRange = (fromMs: number, toMs: number) => byTime.slice(firstAt(fromMs), firstAt(toMs));
  return {
    async addLead(fact) {
      if (facts.has(fact.callbackId)) return;
      const kept: LeadFact = { ...fact, placed: false, outcome: null, answerSeconds: null, talkSeconds: null };
      facts.set(fact.callbackId, kept);
      byTime.splice(firstAt(fact.at + 1), 0, kept);
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
      return inRange(fromMs, toMs).map((f) => ({ ...f }));
    },
    async newestLeads(fromMs, toMs, limit) {
      return inRange(fromMs, toMs)
        .slice(-limit)
        .reverse()
        .map((f) => ({ ...f }));
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
    async dayTop(q, k) {
      return topOfDay(groupDay(opens.get(q.day)?.values() ?? [], inRange(q.fromMs, q.toMs), q), k);
    },
    async dayGroups(q, keys) {
      return groupsOfDay(groupDay(opens.get(q.day)?.values() ?? [], inRange(q.fromMs, q.toMs), q), keys);
    },
  };
}
