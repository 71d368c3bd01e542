// A visitor's data on request (GET and DELETE /owner/api/numbers/<E.164>, and `npm run data`):
// everything the relay keeps about one number (its calls with their tracking consent, consent
// records, events, limits, the never-call list), found by its keyed hash in every store (and by its
// written forms in the report's visitor values), and its erasure, the copies in this relay's memory
// included. What stays after an erasure, and why: number-data/README.md.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { ConsentLog, ConsentRecord } from '../consent/consent-log.ts';
import { numberHmac } from '../phone/number-hash.ts';
import { eraseFromConsentFile, findInConsentFile } from '../consent/erase-from-file.ts';
import { RelayError } from '../contract/errors.ts';
import type { Refusal } from '../limits/limit-store.ts';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import type { MemoryCopies } from '../lib/memory-copies.ts';
import type { Limiter } from '../limits/index.ts';
import type { Logger } from '../log/index.ts';
import type { CallBackNumbers } from '../owner/callback-numbers.ts';
import type { NeverCallList } from '../phone/never-call-list.ts';
import type { ReportStore } from '../report/report-store.ts';
import type { ErasureNotices } from '../shared-state/erasure-notices.ts';
import type { Config } from '../config/index.ts';
import type { KeptRecords, NumberRecords } from './number-records.ts';
import { mentionsOf } from './number-mentions.ts';
import type { TrackingConsent } from '../contract/contract.ts';
import { storedConsent } from '../tracking-consent/snapshot.ts';

type ValueMatches = Awaited<ReturnType<ReportStore['findValues']>>;
type ValuesErased = Awaited<ReturnType<ReportStore['eraseValues']>>;

/** What finding and erasing a number uses: every store that may hold it, and what this relay holds in memory. */
export interface NumberDataDeps {
  config: Pick<Config, 'hash' | 'consent'>;
  log: Logger;
  limiter: Pick<Limiter, 'numberHolds'>;
  consent: Pick<ConsentLog, 'recent'>;
  copies: Pick<MemoryCopies, 'forget'>;
  /** Several relays: how the others hear of an erasure; null with one relay. */
  erasureNotices: Pick<ErasureNotices, 'announce'> | null;
  stores: { numberRecords: NumberRecords; callBackNumbers: CallBackNumbers; neverCall: NeverCallList; report: ReportStore; idempotency: IdempotencyStore };
}

/** Report entries listed by GET at most, of each kind: a flood may have written the number into millions of open groups. */
const REPORT_LISTED = 100;

/** The number as E.164 (`+380501234567`); anything else is a 400 naming `number`. */
export function readNumber(text: string): string {
  const compact = text.replace(/[\s().-]/g, '');
  const parsed = /^\+\d{6,17}$/.test(compact) ? parsePhoneNumberFromString(compact) : undefined;
  if (!parsed) throw new RelayError('invalid_phone', 'Give the number in international form, with its + and country code (E.164), e.g. +380501234567.', { field: 'number' });
  return parsed.number;
}

export interface NumberData {
  number: string;
  calls: Array<{
    callbackId: string;
    requestedAs: string;
    stage: string;
    state: string;
    requestedAt: string;
    updatedAt: string;
    outcome: string | null;
    attempts: number;
    maskedNumber: string;
    /** Whether the job still holds the full number (while a call may be placed). */
    numberKept: boolean;
    attribution: Record<string, string | undefined>;
    /** The visitor's tracking consent as the widget told it with the request; null when not told. */
    trackingConsent: TrackingConsent | null;
    pageUrl: string | null;
    origin: string;
    locale: string | null;
  }>;
  consent: ConsentRecord[];
  outbox: Array<{ eventId: string; type: string; callbackId: string; state: string; createdAt: string; attempts: number; finishedAt: string | null; bodyKept: boolean }>;
  callBack: Array<{ callbackId: string; until: string }>;
  limits: { refusals: Refusal[] };
  neverCall: { listed: boolean; listedAt: string | null };
  /** The lead report's leads and open groups whose visitor values mention the number, and those values. */
  report: {
    leads: Array<{ callbackId: string; requestedAt: string; values: Record<string, string> }>;
    opens: Array<{ day: string; count: number; values: Record<string, string> }>;
    /** More were found than listed (REPORT_LISTED of each). */
    more: boolean;
  };
}

const valuesOf = (entry: Record<string, unknown>, fields: readonly string[]) => Object.fromEntries(fields.map((f) => [f, String(entry[f])]));

function reportOf(found: ValueMatches): NumberData['report'] {
  return {
    leads: found.leads.map((l) => ({ callbackId: l.callbackId, requestedAt: iso(l.at), values: valuesOf({ ...l }, l.fields) })),
    opens: found.opens.map((o) => ({ day: o.day, count: o.count, values: valuesOf({ ...o }, o.fields) })),
    more: found.more,
  };
}

/** Every consent record of the number: the store's, the file's, and this relay's copy in memory (the memory store's own), once each. */
async function consentOf(app: NumberDataDeps, hash: string, kept: KeptRecords): Promise<ConsentRecord[]> {
  const path = app.config.consent.logPath;
  const all = [...kept.consent, ...(path ? await findInConsentFile(path, hash) : []), ...app.consent.recent().filter((r) => r.numberHmac === hash)];
  return [...new Map(all.map((r) => [r.callbackId, r])).values()];
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function numberData(app: NumberDataDeps, e164: string): Promise<NumberData> {
  const hash = numberHmac(app.config.hash.secret, e164);
  const { stores } = app;
  const [kept, callBack, refusals, listedAt] = await Promise.all([
    stores.numberRecords.find(hash),
    stores.callBackNumbers.ofNumber(hash),
    app.limiter.numberHolds(e164.slice(1)),
    stores.neverCall.listedAt(hash),
  ]);
  const consent = await consentOf(app, hash, kept);
  const report = await stores.report.findValues(mentionsOf(e164), REPORT_LISTED);
  return {
    number: e164,
    calls: kept.jobs.map((j) => ({
      callbackId: j.callbackId,
      requestedAs: j.requestedAs,
      stage: j.stage,
      state: j.state,
      requestedAt: iso(j.createdAt),
      updatedAt: iso(j.updatedAt),
      outcome: j.outcome,
      attempts: j.attempts,
      maskedNumber: j.maskedNumber,
      numberKept: j.request.e164 !== null,
      attribution: j.request.attribution,
      trackingConsent: storedConsent(j.request.trackingConsent),
      pageUrl: j.request.pageUrl,
      origin: j.request.origin,
      locale: j.request.locale,
    })),
    consent,
    outbox: kept.outbox.map((e) => ({
      eventId: e.eventId,
      type: e.type,
      callbackId: e.callbackId,
      state: e.state,
      createdAt: iso(e.createdAt),
      attempts: e.attempts,
      finishedAt: e.finishedAt === null ? null : iso(e.finishedAt),
      bodyKept: e.body !== null,
    })),
    callBack: callBack.map((c) => ({ callbackId: c.callbackId, until: iso(c.untilMs) })),
    limits: { refusals },
    neverCall: { listed: listedAt !== null, listedAt: listedAt === null ? null : iso(listedAt) },
    report: reportOf(report),
  };
}

export interface Erasure {
  number: string;
  erased: {
    calls: number;
    consent: number;
    outbox: number;
    callBack: number;
    consentFile: number;
    /** Idempotency-Key answers of the number's requests. */
    answers: number;
    /** Report values that mentioned the number, now "(erased)". */
    report: ValuesErased;
    /** Entries of this relay's memory, by what held them. */
    memory: Record<string, number>;
  };
  /** Several relays (Redis): the others were told, and forget the number in their memory within a second or two. */
  otherRelaysTold: boolean;
  /** What stays, and why (docs/data-at-rest.md). */
  kept: { neverCall: boolean };
}

export async function eraseNumberData(app: NumberDataDeps, e164: string): Promise<Erasure> {
  const hash = numberHmac(app.config.hash.secret, e164);
  const { stores } = app;
  const path = app.config.consent.logPath;
  // The number's requests, as every record knows them, before the records go: their stored answers go too.
  const [kept, callBacks] = await Promise.all([stores.numberRecords.find(hash), stores.callBackNumbers.ofNumber(hash)]);
  const consent = await consentOf(app, hash, kept);
  const callbackIds = new Set([...kept.jobs, ...kept.outbox, ...consent, ...callBacks].map((r) => r.callbackId));

  const callBack = await stores.callBackNumbers.erase(hash);
  const records = await stores.numberRecords.erase(hash);
  const consentFile = path ? await eraseFromConsentFile(path, hash) : 0;
  const answers = await stores.idempotency.forgetAnswers(callbackIds);
  const report = await stores.report.eraseValues(mentionsOf(e164));
  const memory = app.copies.forget({ e164, hash, callbackIds });
  await app.erasureNotices?.announce({ e164, hash, callbackIds });
  await stores.numberRecords.scrub();
  const listed = await stores.neverCall.has(hash);
  app.log.info('number data erased', {
    calls: records.jobs,
    consent: records.consent + consentFile,
    outbox: records.outbox,
    callBack,
    answers,
    reportLeads: report.leads,
    reportOpens: report.opens,
    neverCallKept: listed,
  });
  return {
    number: e164,
    erased: { calls: records.jobs, consent: records.consent, outbox: records.outbox, callBack, consentFile, answers, report, memory },
    otherRelaysTold: app.erasureNotices !== null,
    kept: { neverCall: listed },
  };
}
