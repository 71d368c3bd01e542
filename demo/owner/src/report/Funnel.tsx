// The period's funnel: of the visitors who opened the widget, how many asked, were called, answered
// and talked. Each step shows its count and its share of the opens; the bar is decoration only.
import { h } from 'preact';
import type { Formats } from '../format.ts';
import type { LeadReport } from '../types.ts';

const percent = (n: number, of: number) => (of > 0 ? `${Math.round((n / of) * 100)}%` : '—');

export function Funnel({ report, formats }: { report: LeadReport; formats: Formats }) {
  const t = report.totals;
  const steps: Array<[string, string, number]> = [
    ['opened', 'Opened the widget', t.opened],
    ['requested', 'Asked for a call', t.requested],
    ['placed', 'Call placed', t.placed],
    ['answered', 'Answered', t.answered],
    ['talked', `Talked ${report.talkSeconds} s or more`, t.talked],
  ];
  const top = Math.max(1, ...steps.map((s) => s[2]));
  return (
    <div class="funnel-block">
      <ol class="funnel" aria-label="Funnel">
        {steps.map(([key, label, n]) => (
          <li key={key} data-step={key}>
            <span class="step">{label}</span>
            <span class="count">
              <strong>{n}</strong> <span class="share">{percent(n, t.opened)} of opens</span>
            </span>
            <span class="bar" aria-hidden="true">
              <span class={`fill ${key}`} style={{ width: `${(n / top) * 100}%` }} />
            </span>
          </li>
        ))}
      </ol>
      <dl class="outcomes">
        <div data-outcome="missed">
          <dt>Missed</dt>
          <dd>{t.missed}</dd>
        </div>
        <div data-outcome="failed">
          <dt>Failed</dt>
          <dd>{t.failed}</dd>
        </div>
        <div data-outcome="median">
          <dt>Median time to answer</dt>
          <dd>{formats.seconds(t.medianAnswerSeconds)}</dd>
        </div>
      </dl>
    </div>
  );
}
