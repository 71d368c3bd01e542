// What /api/status said before the visitor typed: nobody free, or the office closed until a time
// shown in the visitor's own time zone.
import { h } from 'preact';
import type { StatusResponse } from '../../../server/src/contract/contract.ts';
import type { WidgetConfig } from '../config.ts';
import { CallUsLink } from './CallUsLink.tsx';
import type { Messages } from './i18n/types.ts';
import { closedSentence } from './messages.ts';

type Availability = 'closed' | 'busy' | 'open';

export function availability(status: StatusResponse | null): Availability {
  if (!status || status.source === 'unknown') return 'open'; // not knowing is no reason to refuse
  if (!status.openNow) return 'closed';
  return status.available ? 'open' : 'busy';
}

export function StatusNotice({ status, config, messages: m }: { status: StatusResponse | null; config: WidgetConfig; messages: Messages }) {
  const state = availability(status);
  if (state === 'open') return null;
  if (state === 'busy') return <p class="notice busy">{m.busy}</p>;
  return (
    <div class="notice closed">
      <p>{closedSentence(config.lang, m, status?.nextOpenAt)}</p>
      <CallUsLink config={config} template={m.callUs} />
    </div>
  );
}
