// A visitor's data on request (GET and DELETE /owner/api/numbers/<E.164>, and the operators'
// command, cli.ts): everything the relay keeps about one number, and its erasure. Records name a
// number by its keyed hash, so the number given is hashed and looked up in every store: callback
// jobs (held and followed calls, their states, attribution and tracking consent), consent records, lead webhook
// events, a missed or failed lead's call-back number, what the number's limits hold now, and the
// never-call list. Erasure deletes all of it except the never-call list's keyed hash when the owner
// put the number there: forgetting it would let the number be called again. The limits' counts
// are keyed hashes that expire within a day; they stay, or erasure would lift a flood's limits.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { AppContext } from '../app-context.ts';
import type { TrackingConsent } from '../contract.ts';
import type { ConsentRecord } from '../consent/consent-log.ts';
import { numberHmac } from '../consent/consent-log.ts';
import { eraseFromConsentFile } from '../consent/erase-from-file.ts';
import { RelayError } from '../errors.ts';
import type { Refusal } from '../limits/limit-store.ts';
import { storedConsent } from '../tracking-consent/snapshot.ts';

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
    /** The visitor's consent to analytics and ads as the widget told it; null when not told. */
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
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function numberData(app: AppContext, e164: string): Promise<NumberData> {
  const hash = numberHmac(app.config.hash.secret, e164);
  const { stores } = app;
  const [kept, callBack, refusals, listedAt] = await Promise.all([
    stores.numberRecords.find(hash),
    stores.callBackNumbers.ofNumber(hash),
    app.limiter.numberHolds(e164.slice(1)),
    stores.neverCall.listedAt(hash),
  ]);
  // The consent file (CONSENT_LOG_PATH) is its own: the memory log's recent records stand for it.
  const consent = kept.consent.length > 0 || !app.config.consent.logPath ? kept.consent : app.consent.recent().filter((r) => r.numberHmac === hash);
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
  };
}

export interface Erasure {
  number: string;
  erased: { calls: number; consent: number; outbox: number; callBack: number; consentFile: number };
  /** What stays, and why (docs/data-at-rest.md). */
  kept: { neverCall: boolean };
}

export async function eraseNumberData(app: AppContext, e164: string): Promise<Erasure> {
  const hash = numberHmac(app.config.hash.secret, e164);
  const callBack = await app.stores.callBackNumbers.erase(hash);
  const records = await app.stores.numberRecords.erase(hash);
  const consentFile = app.config.consent.logPath ? await eraseFromConsentFile(app.config.consent.logPath, hash) : 0;
  const listed = await app.stores.neverCall.has(hash);
  app.log.info('number data erased', { calls: records.jobs, consent: records.consent + consentFile, outbox: records.outbox, callBack, neverCallKept: listed });
  return {
    number: e164,
    erased: { calls: records.jobs, consent: records.consent, outbox: records.outbox, callBack, consentFile },
    kept: { neverCall: listed },
  };
}
