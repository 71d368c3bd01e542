// The lead report: pick a period and a grouping; the funnel, the chart per day, the groups and the
// period's leads follow, all from the relay's /owner/api/report and /owner/api/leads. The same
// query is offered as a CSV download.
import { Fragment, h } from 'preact';
import { useState } from 'preact/hooks';
import type { Formats } from '../format.ts';
import { PeriodLeads } from '../leads/PeriodLeads.tsx';
import type { LeadReport, Period, ReportBy } from '../types.ts';
import { usePoll } from '../use-poll.ts';
import { DayChart } from './DayChart.tsx';
import { Funnel } from './Funnel.tsx';
import { GroupTable } from './GroupTable.tsx';
import { type Preset, presetPeriod } from './period.ts';
import { PeriodPicker } from './PeriodPicker.tsx';

export function Report({ formats, today }: { formats: Formats; today: string }) {
  const [preset, setPreset] = useState<Preset>('7');
  const [custom, setCustom] = useState<Period>(() => presetPeriod('7', today));
  const [by, setBy] = useState<ReportBy>('source');
  const period = preset === 'custom' ? custom : presetPeriod(preset, today);
  const query = new URLSearchParams({ from: period.from, to: period.to, by }).toString();
  const { data, error } = usePoll<LeadReport>(`/owner/api/report?${query}`, 30_000);

  return (
    <>
      <section class="card wide" aria-labelledby="report-title" id="report">
        <div class="section-head">
          <h2 id="report-title">Lead report</h2>
          <a class="button secondary" href={`/owner/api/report.csv?${query}`} download={`dialback-report-${period.from}-${period.to}-${by}.csv`}>
            Download CSV
          </a>
        </div>
        <PeriodPicker preset={preset} custom={custom} by={by} onPreset={setPreset} onCustom={setCustom} onBy={setBy} />
        <p class="summary" id="report-summary" aria-live="polite">
          {data ? `${formats.day(data.from)} – ${formats.day(data.to)}, days in ${data.timeZone}; talked means ${data.talkSeconds} s of talk or more.` : !error ? 'Loading…' : ''}
        </p>
        {error ? (
          <p class="error" role="alert">
            The report could not be loaded: {error}
          </p>
        ) : null}
        {data ? (
          <div class="report-body">
            <Funnel report={data} formats={formats} />
            <DayChart report={data} formats={formats} />
            <GroupTable report={data} formats={formats} />
          </div>
        ) : null}
      </section>
      <PeriodLeads period={period} formats={formats} onLeadOutside={() => preset !== 'custom' && preset !== '30' && setPreset('30')} />
    </>
  );
}
