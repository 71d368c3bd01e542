// A lead's stage (callback/stages.ts), as the owner reads it.
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
  // Leads whose job is no longer kept: how far the report saw them go.
  placed: 'Placed',
  requested: 'Asked',
};
export const stageWords = (stage: string) => WORDS[stage] ?? stage;

/** How a lead is named in messages: its masked number, while the relay still keeps it. */
export const leadName = (lead: { number: string | null }) => lead.number ?? 'this lead';
