// The relay's schema: one migration per change, each in its own file (schema/step-<n>.ts), applied in
// order by migrations.ts. Never edit a released step: add the next one. Times are milliseconds since
// the epoch; keys of limits and numbers are keyed hashes, never the number. Only two columns can hold
// a full number, callback_jobs.e164 and webhook_outbox.body, both emptied by the purge (purge.ts).
import type { Migration } from './migrations.ts';
import { step1 } from './schema/step-1.ts';
import { step2 } from './schema/step-2.ts';
import { step3 } from './schema/step-3.ts';
import { step4 } from './schema/step-4.ts';
import { step5 } from './schema/step-5.ts';
import { step6 } from './schema/step-6.ts';
import { step7 } from './schema/step-7.ts';
import { step8 } from './schema/step-8.ts';
import { step9 } from './schema/step-9.ts';
import { step10 } from './schema/step-10.ts';

export const migrations: readonly Migration[] = [step1, step2, step3, step4, step5, step6, step7, step8, step9, step10];
