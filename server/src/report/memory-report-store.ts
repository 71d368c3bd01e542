// ReportStore in memory: tests, benchmarks, and the relay without a store.
import { collectMatches, erasedGroup, matchesOf, matchingFields } from './erase-values.ts';
import { groupDay, groupsOfDay, topOfDay } from './day-tally.ts';
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
  // The facts by when they were asked for, oldest first: a period's leads are a slice of it.
  const byTime: LeadFact[] = [];
  const opens = new Map<string, Map<string, OpenCount>>();
  /** Each group's newest lead, ms: its opens always have room (LEAD_GROUP_DAYS). */
  const leadGroups = new Map<string, number>();
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
      const kept: LeadFact = { ...fact, consent: fact.consent ?? '', placed: false, outcome: null, answerSeconds: null, talkSeconds: null };
      facts.set(fact.callbackId, kept);
      byTime.splice(firstAt(fact.at + 1), 0, kept);
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
      return inRange(fromMs, toMs).map((f) => ({ ...f }));
    },
    async newestLeads(fromMs, toMs, limit) {
      return inRange(fromMs, toMs)
        .slice(-limit)
        .reverse()
        .map((f) => ({ ...f }));
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
      // The groups with a lead (room for their opens) are named by their values too.
      for (const [key, at] of [...leadGroups]) {
        const [source = '', medium = '', campaign = '', department = '', page = ''] = JSON.parse(key) as string[];
        const group = { source, medium, campaign, department, page };
        const fields = matchingFields(group, test);
        if (fields.length === 0) continue;
        leadGroups.delete(key);
        const erased = groupKey(erasedGroup(group, fields));
        leadGroups.set(erased, Math.max(leadGroups.get(erased) ?? 0, at));
      }
      return { leads: leads.length, opens: erasedOpens };
    },
    async dayTop(q, k) {
      return topOfDay(groupDay(opens.get(q.day)?.values() ?? [], inRange(q.fromMs, q.toMs), q), k);
    },
    async dayGroups(q, keys) {
      return groupsOfDay(groupDay(opens.get(q.day)?.values() ?? [], inRange(q.fromMs, q.toMs), q), keys);
    },
  };
}
