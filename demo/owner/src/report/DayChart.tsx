// The report per day, drawn by uPlot on a canvas. uPlot sets its element styles through the DOM
// (el.style), which a strict CSP (style-src 'self') allows, and its stylesheet is bundled into
// owner.css. A canvas says nothing to a screen reader: the figure is named with the period's
// totals and the same figures follow as a table (below the chart, folded).
import { h } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import type { Formats } from '../format.ts';
import type { LeadReport } from '../types.ts';
import { TableWrap } from '../TableWrap.tsx';

const SERIES = [
  { key: 'opened', label: 'Opened', stroke: '#6b7a99' },
  { key: 'requested', label: 'Asked', stroke: '#2754c5' },
  { key: 'answered', label: 'Answered', stroke: '#1f8a4c' },
  { key: 'talked', label: 'Talked', stroke: '#0f5c8a' },
  { key: 'missed', label: 'Missed', stroke: '#c0562a' },
  { key: 'failed', label: 'Failed', stroke: '#a3243b' },
] as const;
const HEIGHT = 240;

const dayLabel = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const shortDay = (ts: number) => dayLabel.format(new Date(ts * 1000));

/** A YYYY-MM-DD day as uPlot's x value: seconds at that day's midnight, read back in UTC. */
const dayX = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

function chartData(report: LeadReport): uPlot.AlignedData {
  return [report.days.map((d) => dayX(d.date)), ...SERIES.map((s) => report.days.map((d) => d[s.key]))];
}

function options(width: number, days: number): uPlot.Options {
  return {
    width,
    height: HEIGHT,
    // Day labels are calendar dates: shown in UTC so the browser's zone cannot shift them.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] }, y: { range: (_u, _min, max) => [0, Math.max(4, max)] } },
    axes: [
      // Day labels as the page writes days (25 Nov), never a US month/day.
      { stroke: '#6b7280', grid: { show: false }, space: 56, values: (_u, splits) => splits.map(shortDay) },
      { stroke: '#6b7280', grid: { stroke: '#8881', width: 1 }, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] },
    ],
    series: [{}, ...SERIES.map((s) => ({ label: s.label, stroke: s.stroke, width: 2, points: { show: days <= 31, size: 6, fill: s.stroke } }))],
  };
}

export function DayChart({ report, formats }: { report: LeadReport; formats: Formats }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current!;
    const plot = new uPlot(options(Math.max(200, el.clientWidth), report.days.length), chartData(report), el);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(200, el.clientWidth), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [report]);

  const t = report.totals;
  const summary = `Per day, ${formats.day(report.from)} to ${formats.day(report.to)}: ${t.opened} opened, ${t.requested} asked, ${t.answered} answered, ${t.talked} talked, ${t.missed} missed, ${t.failed} failed.`;
  return (
    <figure class="chart-figure">
      <div ref={box} class="chart" role="img" aria-label={summary} data-days={report.days.length} />
      <figcaption>
        <ul class="legend" aria-label="Lines">
          {SERIES.map((s) => (
            <li key={s.key} data-series={s.key}>
              <span class="swatch" aria-hidden="true" style={{ background: s.stroke }} />
              {s.label}
            </li>
          ))}
        </ul>
      </figcaption>
      <details class="per-day">
        <summary>The figures per day</summary>
        <TableWrap label="Figures per day">
          <table id="per-day">
            <thead>
              <tr>
                <th scope="col">Day</th>
                {SERIES.map((s) => (
                  <th key={s.key} scope="col">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {report.days.map((d) => (
                <tr key={d.date} data-date={d.date}>
                  <th scope="row">{formats.day(d.date)}</th>
                  {SERIES.map((s) => (
                    <td key={s.key}>{d[s.key]}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </details>
    </figure>
  );
}
