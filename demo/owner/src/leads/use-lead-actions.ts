// The owner's two actions on a lead, each ending in one message said out loud (role=status) and
// given focus, so a keyboard or screen-reader user hears the result where they are:
//   call back now     POST …/call-back: 202 placed (through the normal limits), 409 not now;
//   never call        POST …/never-call: 200, after a confirm.
import { useRef, useState } from 'preact/hooks';
import { ApiError, postJson } from '../api.ts';
import type { PeriodLead } from '../types.ts';
import { leadName } from './stage-words.ts';

export interface ActionMessage {
  callbackId: string;
  text: string;
  error: boolean;
}

export function useLeadActions(refresh: () => Promise<void>) {
  const [message, setMessage] = useState<ActionMessage | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);

  async function run(lead: PeriodLead, path: string, done: string, refused: (err: ApiError) => string) {
    setBusy(lead.callbackId);
    // Focus goes to the message with its text, before the list is asked again: the result is
    // heard at once, and focus is never left on a button the refreshed list may have removed.
    const say = (text: string, error: boolean) => {
      setMessage({ callbackId: lead.callbackId, text, error });
      messageRef.current?.focus();
    };
    try {
      await postJson(`/owner/api/leads/${lead.callbackId}/${path}`);
      say(done, false);
      await refresh();
    } catch (err) {
      say(err instanceof ApiError ? refused(err) : 'The relay could not be asked: try again.', true);
    }
    setBusy(null);
  }

  return {
    message,
    busy,
    messageRef,
    callBack: (lead: PeriodLead) =>
      run(lead, 'call-back', `Calling ${leadName(lead)} back: the call is placed now, within office hours and the number limits.`, (err) =>
        err.status === 409 ? `${leadName(lead)} cannot be called back now: ${err.message}` : `Calling ${leadName(lead)} back failed: ${err.message}`,
      ),
    neverCall: (lead: PeriodLead) =>
      run(
        lead,
        'never-call',
        `${leadName(lead)} is on the never-call list: it will not be called again.`,
        (err) => `${leadName(lead)} could not be put on the never-call list: ${err.message}`,
      ),
  };
}
