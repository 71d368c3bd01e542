// The page: who can answer now, the lead report with the period's leads, what is waiting, and the
// latest calls. The project's time zone is fetched first: every time below is shown in it.
import { Fragment, h } from 'preact';
import { useMemo } from 'preact/hooks';
import { Agents } from './Agents.tsx';
import { formatsFor } from './format.ts';
import { LatestCalls } from './LatestCalls.tsx';
import { PendingLeads } from './PendingLeads.tsx';
import { Report } from './report/Report.tsx';
import type { OwnerViewFacts } from './types.ts';
import { usePoll } from './use-poll.ts';

export function App() {
  // Polled slowly: "today" moves at midnight in the project's zone.
  const facts = usePoll<OwnerViewFacts>('/owner/api/view', 60_000);
  const formats = useMemo(() => (facts.data ? formatsFor(facts.data.timeZone) : null), [facts.data?.timeZone]);
  return (
    <>
      <header class="top">
        <div>
          <h1>
            Dialback <span>owner view</span>
          </h1>
          <p class="lead">Who can answer now, what each campaign brought in, and the leads to act on.</p>
        </div>
        <p class="zone" id="time-zone">
          {formats ? (
            <>
              All times in <strong>{formats.timeZone}</strong>
            </>
          ) : (
            (facts.error ?? 'Connecting…')
          )}
        </p>
      </header>
      <main>
        <Agents />
        {formats && facts.data ? (
          <>
            <Report formats={formats} today={facts.data.today} />
            <PendingLeads formats={formats} />
            <LatestCalls formats={formats} />
          </>
        ) : null}
      </main>
    </>
  );
}
