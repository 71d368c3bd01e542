// The owner's two actions on a lead, each ending in one message said out loud (role=status) and
// given focus, so a keyboard or screen-reader user hears the result where they are:
//   call back now     POST …/call-back: 202 placed (through the normal limits), 409 not now;
//   never call        POST …/never-call: 200, after a confirm.
import { useRef, useState } from 'preact/hooks';
import { ApiError, postJson } from '../api.ts';
import type { OwnerLead } from '../types.ts';

export interface ActionMessage {
  callbackId: string;
  text: string;
  error: boolean;
}

export function useLeadActions(refresh: () => Promise<void>) {
  const [message, setMessage] = useState<ActionMessage | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);

  async function run(lead: OwnerLead, path: string, done: string, refused: (err: ApiError) => string) {
    setBusy(lead.callbackId);
    try {
      await postJson(`/owner/api/leads/${lead.callbackId}/${path}`);
      setMessage({ callbackId: lead.callbackId, text: done, error: false });
      await refresh();
    } catch (err) {
      const text = err instanceof ApiError ? refused(err) : 'The relay could not be asked: try again.';
      setMessage({ callbackId: lead.callbackId, text, error: true });
    }
    setBusy(null);
    messageRef.current?.focus();
  }

  return {
    message,
    busy,
    messageRef,
    callBack: (lead: OwnerLead) =>
      run(lead, 'call-back', `Calling ${lead.number} back now: the call is being placed.`, (err) =>
        err.status === 409 ? `${lead.number} cannot be called back now: ${err.message}` : `Calling ${lead.number} back failed: ${err.message}`,
      ),
    neverCall: (lead: OwnerLead) =>
      run(
        lead,
        'never-call',
        `${lead.number} is on the never-call list: it will not be called again.`,
        (err) => `${lead.number} could not be put on the never-call list: ${err.message}`,
      ),
  };
}
