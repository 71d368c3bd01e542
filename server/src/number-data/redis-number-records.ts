// NumberRecords in Redis: each store finds and erases its own records of the number (their keys are
// theirs: RecordsByNumber), and the shared call-log snapshot is dropped (it holds every recent
// call's number; the next poll fetches it again). Redis Cluster: each store's group is one hash tag,
// one slot, erased on its own; a failure between two leaves the later ones to the next erasure,
// which finds them again.
import type { CallbackJob } from '../callback/job-store.ts';
import type { ConsentRecord } from '../consent/consent-log.ts';
import type { SharedPoll } from '../shared-state/shared-state.ts';
import type { RecordsByNumber } from '../storage/records-by-number.ts';
import type { OutboxEntry } from '../webhooks/outbox.ts';
import type { NumberRecords } from './number-records.ts';

export function createRedisNumberRecords(stores: {
  jobs: RecordsByNumber<CallbackJob>;
  consent: RecordsByNumber<ConsentRecord>;
  outbox: RecordsByNumber<OutboxEntry>;
  callLog: Pick<SharedPoll<unknown>, 'forget'>;
}): NumberRecords {
  return {
    async find(hash) {
      const [jobs, consent, outbox] = await Promise.all([stores.jobs.ofNumber(hash), stores.consent.ofNumber(hash), stores.outbox.ofNumber(hash)]);
      return { jobs, consent, outbox };
    },
    async erase(hash) {
      const jobs = await stores.jobs.eraseNumber(hash);
      const consent = await stores.consent.eraseNumber(hash);
      const outbox = await stores.outbox.eraseNumber(hash);
      await stores.callLog.forget();
      return { jobs, consent, outbox };
    },
    // Redis keeps no older copies of a deleted key's value that a client can read.
    scrub: async () => {},
  };
}
