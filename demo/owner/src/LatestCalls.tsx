// The latest calls in the service's call log, the widget's marked, numbers masked by the relay.
import { h } from 'preact';
import { counted, type Formats } from './format.ts';
import { ListTable } from './TableWrap.tsx';
import type { OwnerCalls } from './types.ts';
import { usePoll } from './use-poll.ts';

/** Dispositions of calls that were talked through (and one still going on): not shown as missed. */
const TALKED = ['ANSWERED', 'REPEATED', 'PROPER', 'IN PROGRESS'];

export function LatestCalls({ formats }: { formats: Formats }) {
  const { data, error } = usePoll<OwnerCalls>('/owner/api/calls', 15_000);
  const fromWidget = data?.latest.filter((c) => c.widget).length ?? 0;
  return (
    <section class="card wide" aria-labelledby="calls-title">
      <h2 id="calls-title">Latest calls</h2>
      <p id="calls-summary" class="summary">
        {data
          ? `${counted(data.latest.length, 'latest call', 'latest calls')}, ${fromWidget} from the widget${data.live ? '' : ' (the call log is not answering; showing the last data)'}.`
          : (error ?? 'Loading…')}
      </p>
      <ListTable
        id="calls"
        label="Latest calls"
        columns={['Time', 'Number', 'Disposition', 'Talk', 'Source / medium', 'Client id', 'Via']}
        rows={
          data?.latest.map((c) => (
            <tr key={`${c.time}-${c.number}-${c.clientId}`} data-widget={String(c.widget)}>
              <td>{formats.time(c.time)}</td>
              <td class="number">{c.number}</td>
              <td class={!TALKED.includes(c.disposition) && c.talkSeconds === 0 ? 'bad' : ''}>{c.disposition}</td>
              <td>{formats.seconds(c.talkSeconds)}</td>
              <td>
                {c.utmSource || '—'} / {c.utmMedium || '—'}
              </td>
              <td class="client-id">{c.clientId || '—'}</td>
              <td>{c.placedHere ? <span class="badge">Widget</span> : c.widget ? <span class="badge">Callback</span> : c.callType}</td>
            </tr>
          )) ?? null
        }
        empty="No calls in the last days."
      />
    </section>
  );
}
