// The words of the people's messages, one catalog per language of the widget. Typed records make
// a missing sentence a compile error in every language.
import type { NotifyEvent } from '../../../config/notify.ts';

export interface NotifyTexts {
  /** BCP 47 locale for dates and numbers. */
  locale: string;
  /** The message's title per step, also the email's subject (after the number). */
  title: Record<NotifyEvent, string>;
  /** One sentence: what happened and what to do. */
  lead: Record<NotifyEvent, string>;
  /** The state line's words per step. */
  state: Record<NotifyEvent, string>;
  labels: {
    number: string;
    department: string;
    state: string;
    time: string;
    bookedFor: string;
    reason: string;
    source: string;
    medium: string;
    campaign: string;
    page: string;
  };
  /** The link to the lead in the owner view. */
  open: string;
  /** An empty value (no utm source, no page). */
  none: string;
  digest: {
    /** `{day}`: the digest's day. */
    title: string;
    /** `{from}`, `{to}`: the 24 hours it counts. */
    period: string;
    source: string;
    leads: string;
    answered: string;
    missed: string;
    failed: string;
    pending: string;
    /** Cancelled, or placed with an outcome the call log never showed. */
    other: string;
    total: string;
    /** Leads without a utm source. */
    direct: string;
    empty: string;
    open: string;
  };
}
