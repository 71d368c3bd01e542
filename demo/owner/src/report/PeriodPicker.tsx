// The report's controls: the period (today, 7 days, 30 days, or a custom from/to applied with a
// button, so the report is not asked again at each keystroke) and what to group by.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { REPORT_BY, type ReportBy } from '../types.ts';
import type { Period } from '../types.ts';
import { customProblem, type Preset } from './period.ts';

const PRESETS: Array<[Preset, string]> = [
  ['today', 'Today'],
  ['7', '7 days'],
  ['30', '30 days'],
  ['custom', 'Custom'],
];
const BY_LABEL: Record<ReportBy, string> = { source: 'utm source', medium: 'utm medium', campaign: 'utm campaign', department: 'Department', page: 'Page' };
export const byLabel = (by: ReportBy) => BY_LABEL[by];

export interface PickerProps {
  preset: Preset;
  custom: Period;
  by: ReportBy;
  onPreset(preset: Preset): void;
  onCustom(period: Period): void;
  onBy(by: ReportBy): void;
}

export function PeriodPicker(props: PickerProps) {
  const [from, setFrom] = useState(props.custom.from);
  const [to, setTo] = useState(props.custom.to);
  const [problem, setProblem] = useState<string | null>(null);

  const apply = (e: Event) => {
    e.preventDefault();
    const p = customProblem(from, to);
    setProblem(p);
    if (!p) props.onCustom({ from, to });
  };
  return (
    <div class="controls">
      <fieldset class="presets">
        <legend>Period</legend>
        {PRESETS.map(([value, label]) => (
          <label key={value} class="chip">
            <input type="radio" name="period" value={value} checked={props.preset === value} onChange={() => props.onPreset(value)} /> {label}
          </label>
        ))}
      </fieldset>
      {props.preset === 'custom' ? (
        <form class="custom" onSubmit={apply} aria-label="Custom period" noValidate>
          <label>
            From <input type="date" name="from" value={from} onInput={(e) => setFrom(e.currentTarget.value)} aria-describedby="period-problem" />
          </label>
          <label>
            To <input type="date" name="to" value={to} onInput={(e) => setTo(e.currentTarget.value)} aria-describedby="period-problem" />
          </label>
          <button type="submit" class="button">
            Show
          </button>
          <p id="period-problem" class="error" role="alert">
            {problem ?? ''}
          </p>
        </form>
      ) : null}
      <label class="by">
        Group by{' '}
        <select name="by" value={props.by} onChange={(e) => props.onBy(e.currentTarget.value as ReportBy)}>
          {REPORT_BY.map((b) => (
            <option key={b} value={b}>
              {BY_LABEL[b]}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
