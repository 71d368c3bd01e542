// Leads waiting right now (booked, held through an outage, being placed or re-dialled) and the
// ones that failed in the last week. The relay says which may still be cancelled (`cancellable`):
// not a call it has placed. After a cancel, focus goes to the message saying how it went: the
// button it was on is gone with its row.
import { h } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { postJson } from './api.ts';
import type { Formats } from './format.ts';
import { pagePath } from './format.ts';
import { clientIdWords } from './leads/client-id-words.ts';
import { stageWords } from './leads/stage-words.ts';
import { ListTable } from './TableWrap.tsx';
import type { OwnerLead } from './types.ts';
import { usePoll } from './use-poll.ts';

export function PendingLeads({ formats }: { formats: Formats }) {
  const { data, error, refresh } = usePoll<{ pending: OwnerLead[]; failed: OwnerLead[] }>('/owner/api/leads', 10_000);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);

  async function cancel(lead: OwnerLead) {
    try {
      await postJson(`/owner/api/leads/${lead.callbackId}/cancel`);
      setStatus({ text: `The call to ${lead.number} is cancelled.`, error: false });
      await refresh();
    } catch (err) {
      setStatus({ text: err instanceof Error ? err.message : 'The call could not be cancelled.', error: true });
    }
    statusRef.current?.focus();
  }

  const row = (lead: OwnerLead, waiting: string, action: preact.ComponentChildren) => (
    <tr key={lead.callbackId} data-stage={lead.stage} data-state={lead.state} data-callback={lead.callbackId}>
      <td>{formats.time(lead.at)}</td>
      <td class="number">{lead.number}</td>
      <td class={lead.state === 'failed' ? 'bad' : ''}>{waiting}</td>
      <td>
        {lead.utmSource || '—'} / {lead.utmMedium || '—'}
      </td>
      <td class="client-id" data-consent={lead.consent}>
        {clientIdWords(lead)}
      </td>
      <td class="page">{pagePath(lead.pageUrl)}</td>
      <td>{action}</td>
    </tr>
  );
  const rows = data
    ? [
        ...data.pending.map((lead) =>
          row(
            lead,
            stageWords(lead.stage),
            lead.cancellable ? (
              <button type="button" class="button danger" aria-label={`Cancel the call to ${lead.number}`} onClick={() => cancel(lead)}>
                Cancel
              </button>
            ) : null,
          ),
        ),
        ...data.failed.map((lead) => row(lead, `Failed (${lead.reason ?? 'unknown'}): call back by hand`, null)),
      ]
    : [];
  return (
    <section class="card wide" aria-labelledby="leads-title">
      <h2 id="leads-title">Waiting now</h2>
      <p id="leads-summary" class="summary">
        {data ? `${data.pending.length} waiting, ${data.failed.length} failed in the last 7 days.` : (error ?? 'Loading…')}
      </p>
      <ListTable
        id="leads"
        label="Leads waiting now"
        columns={['When', 'Number', 'Waiting because', 'Source / medium', 'Client id', 'Page', { hidden: 'Action' }]}
        rows={data ? rows : null}
        empty="No lead is waiting."
      />
      <p id="leads-status" ref={statusRef} tabIndex={-1} class={status?.error ? 'message error' : 'message'} role="status">
        {status?.text ?? ''}
      </p>
    </section>
  );
}
