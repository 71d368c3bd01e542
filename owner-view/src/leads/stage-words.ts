// A lead's stage (lifecycle/stages.ts), as the owner reads it.
const WORDS: Record<string, string> = {
  scheduled: 'Booked for this time',
  queued: 'Service was unreachable: held',
  checking: 'Placed: checking the call log',
  following: 'Call in progress',
  redial: 'Nobody answered: will call again',
  answered: 'Answered',
  missed: 'Missed',
  ended: 'Placed: outcome unknown',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
export const stageWords = (stage: string) => WORDS[stage] ?? stage;

/** Leads the owner may call back now: nobody answered, or the call could not be placed. */
export const canCallBack = (stage: string) => stage === 'missed' || stage === 'failed';
