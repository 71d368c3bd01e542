// The report period's leads, newest first, with their state and the owner's actions. A lead named
// in the address (#lead=<id>, how notifications link here) is scrolled to, highlighted and focused;
// if it is not in the period shown, the page asks for a longer one once, then says so.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { counted, type Formats } from '../format.ts';
import { ListTable } from '../TableWrap.tsx';
import type { Period, PeriodLead } from '../types.ts';
import { usePoll } from '../use-poll.ts';
import { clientIdWords } from './client-id-words.ts';
import { ConfirmNeverCall } from './ConfirmNeverCall.tsx';
import { keepInView, leadRowId, linkedLead } from './lead-link.ts';
import { leadName, stageWords } from './stage-words.ts';
import { useLeadActions } from './use-lead-actions.ts';

/** "latest " when the period holds more leads than the list shows. */
const latest = (data: { truncated: boolean }) => (data.truncated ? 'latest ' : '');

/** /owner/api/leads with a period: its leads, newest first (and more than shown: truncated). */
type LeadsAnswer = { leads: PeriodLead[]; truncated: boolean };

export function PeriodLeads({ period, formats, onLeadOutside }: { period: Period; formats: Formats; onLeadOutside: () => void }) {
  const { data, error, refresh } = usePoll<LeadsAnswer>(`/owner/api/leads?from=${period.from}&to=${period.to}`, 15_000);
  const leads = data?.leads ?? null;
  const actions = useLeadActions(refresh);
  const [confirming, setConfirming] = useState<PeriodLead | null>(null);
  const [linked, setLinked] = useState(linkedLead);
  const [outside, setOutside] = useState(false);

  useEffect(() => {
    const onHash = () => setLinked(linkedLead());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  // Go to the linked lead once its row is there (each time the link changes, not at each poll).
  const linkedShown = linked !== null && leads?.some((l) => l.callbackId === linked);
  useEffect(() => {
    if (!linked || !leads) return;
    if (!linkedShown) {
      setOutside(true);
      onLeadOutside();
      return;
    }
    setOutside(false);
    const row = document.getElementById(leadRowId(linked));
    return row ? keepInView(row) : undefined;
  }, [linked, linkedShown, leads === null]);

  const answer = async (sure: boolean) => {
    const lead = confirming!;
    setConfirming(null);
    if (sure) await actions.neverCall(lead);
    // Back to the button, once the dialog has closed and left the page (it would take focus with it).
    else setTimeout(() => document.getElementById(`never-${lead.callbackId}`)?.focus(), 0);
  };

  return (
    <section class="card wide" aria-labelledby="period-leads-title" id="period-leads">
      <h2 id="period-leads-title">Leads in this period</h2>
      <p class="summary" id="period-leads-summary">
        {data ? `${counted(data.leads.length, `${latest(data)}lead`, `${latest(data)}leads`)}, ${formats.day(period.from)} – ${formats.day(period.to)}.` : (error ?? 'Loading…')}
      </p>
      {leads && error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      {outside && linked ? (
        <p class="note" id="linked-outside">
          The linked lead is not among this period's leads: choose a longer period.
        </p>
      ) : null}
      <ListTable
        id="period-leads-table"
        label="Leads in this period"
        columns={['Asked at', 'Number', 'State', 'Source / medium / campaign', 'Client id', 'Department', 'Page', { hidden: 'Actions' }]}
        rows={
          leads?.map((lead) => (
            <tr
              key={lead.callbackId}
              id={leadRowId(lead.callbackId)}
              tabIndex={-1}
              class={lead.callbackId === linked ? 'linked' : ''}
              aria-current={lead.callbackId === linked ? 'true' : undefined}
              data-callback={lead.callbackId}
              data-stage={lead.stage}
            >
              <td>{formats.time(lead.requestedAt)}</td>
              <td class="number">{lead.number ?? '—'}</td>
              <td class={`state ${lead.stage}`}>{stageWords(lead.stage)}</td>
              <td>
                {lead.utmSource || '—'} / {lead.utmMedium || '—'} / {lead.utmCampaign || '—'}
              </td>
              <td class="client-id" data-consent={lead.consent}>
                {clientIdWords(lead, lead.number !== null)}
              </td>
              <td>{lead.department ?? '—'}</td>
              <td class="page">{lead.page ?? '—'}</td>
              <td class="actions">
                {lead.canCallBack ? (
                  <button type="button" class="button" disabled={actions.busy === lead.callbackId} onClick={() => actions.callBack(lead)}>
                    Call back now<span class="visually-hidden"> {lead.number}</span>
                  </button>
                ) : null}
                {lead.number !== null ? (
                  <button type="button" class="button danger" id={`never-${lead.callbackId}`} disabled={actions.busy === lead.callbackId} onClick={() => setConfirming(lead)}>
                    Never call<span class="visually-hidden"> {lead.number}</span>
                  </button>
                ) : null}
              </td>
            </tr>
          )) ?? null
        }
        empty="No leads in this period."
      />
      <p id="action-status" ref={actions.messageRef} tabIndex={-1} role="status" class={actions.message?.error ? 'message error' : 'message'}>
        {actions.message?.text ?? ''}
      </p>
      {confirming ? <ConfirmNeverCall number={leadName(confirming)} onAnswer={answer} /> : null}
    </section>
  );
}
