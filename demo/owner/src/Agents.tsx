// Who can answer right now: every agent online or speaking, polled every few seconds.
import { h } from 'preact';
import type { OwnerAgents } from './types.ts';
import { usePoll } from './use-poll.ts';

export function Agents() {
  const { data, error } = usePoll<OwnerAgents>('/owner/api/agents', 3000);
  const stale = data?.source === 'unknown' ? ' (the call service is not answering)' : '';
  return (
    <section class="card" aria-labelledby="agents-title">
      <h2 id="agents-title">Agents</h2>
      <p id="agents-summary" class="summary">
        {data ? `${data.online} online · ${data.speaking} on a call · ${data.free} free${stale}` : (error ?? 'Loading…')}
      </p>
      {data && error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      <ul id="agents" class="agents">
        {data?.agents.map((a) => {
          const state = a.speaking ? 'speaking' : a.free ? 'free' : a.online ? 'online' : 'offline';
          return (
            <li class="agent" key={a.login} data-login={a.login} data-state={state}>
              <span class="login">{a.login}</span> <span class="state">{state === 'speaking' ? 'on a call' : state}</span>
            </li>
          );
        })}
        {data?.agents.length === 0 ? <li class="empty">Nobody is online.</li> : null}
      </ul>
    </section>
  );
}
