// "Or write to us": the site's messenger links in the dialog, for visitors who would rather write
// than talk. A chunk of its own, fetched with the UI only when the script tag names a messenger.
// Below the view as a second way; first (above the form) when a call cannot happen now: the office
// is closed, the relay cannot be reached, or the visitor's call was missed or failed.
import { Fragment, h } from 'preact';
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { StatusResponse } from '../../../../server/src/contract/contract.ts';
import type { ApiResult } from '../../api.ts';
import type { CallProgressState } from '../progress/track.ts';
import type { UiContext } from '../ui-context.ts';
import type { Phase } from '../useCallbackFlow.ts';
import { messengerLinks, type MessengerLink } from './links.ts';

/** Read once per page: the warning about a bad value is said once, not on every render. */
let links: MessengerLink[] | undefined;
/** A missed or failed call keeps the links first for the rest of the visit (also after "try again"). */
let missed = false;

export interface MessengersProps {
  ctx: UiContext;
  status: Promise<ApiResult<StatusResponse>> | null;
  known: StatusResponse | null;
  phase: Phase;
  progress: CallProgressState;
  /** The dialog's view; the links go before or after it. */
  children: ComponentChildren;
}

export function Messengers({ ctx, status, known, phase, progress, children }: MessengersProps) {
  const [unreachable, setUnreachable] = useState(false);
  useEffect(() => {
    status?.then((result) => setUnreachable(!result.ok && result.code === 'network_error'));
  }, [status]);
  if (!links) {
    // The heading sits on its links (each link keeps its 44 px line for touch), apart from the form above.
    ctx.adoptStyles('.write{margin-top:8px}.write p{margin:0}.write a{margin-inline-end:20px}');
    links = messengerLinks(
      (name) => ctx.script?.getAttribute('data-' + name)?.trim() || null,
      (message) => console.warn(message),
    );
  }
  // While a request is on its way or a call under way, the view is about that call only.
  const ended = progress.requestId === (phase as { requestId?: string }).requestId && progress.final && progress.outcome !== 'completed';
  if (ended && /missed|failed/.test(progress.outcome)) missed = true;
  if (!links.length || (phase.name !== 'form' && !ended)) return <>{children}</>;
  const first = missed || unreachable || (phase.name === 'form' && phase.error?.code === 'network_error') || (!!known && known.source !== 'unknown' && !known.openNow);
  // target=_blank: the site stays open behind the messenger (browsers imply rel=noopener for it).
  const block = (
    <div class="write">
      <p>{ctx.messages.writeToUs}</p>
      {links.map(({ channel, label, href }) => (
        <a key={channel} href={href} target="_blank" onClick={() => ctx.emit('messenger', { channel })} rel="noopener">
          {label}
        </a>
      ))}
    </div>
  );
  return (
    <>
      {first && block}
      {children}
      {!first && block}
    </>
  );
}
