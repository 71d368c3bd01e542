// The owner view's periods: presets counted back from the project's today (today included), a
// custom period checked before it is asked for; across a month's end and a summer-time change
// (days are calendar dates: no zone moves them).
import { describe, expect, it } from 'vitest';
import { addDays, customProblem, presetPeriod } from '../../../demo/owner/src/report/period.ts';

describe('owner view periods', () => {
  it('counts presets back from today, today included', () => {
    expect(presetPeriod('today', '2026-11-25')).toEqual({ from: '2026-11-25', to: '2026-11-25' });
    expect(presetPeriod('7', '2026-11-25')).toEqual({ from: '2026-11-19', to: '2026-11-25' });
    expect(presetPeriod('30', '2026-03-01')).toEqual({ from: '2026-01-31', to: '2026-03-01' });
  });

  it('counts calendar days over the spring summer-time change, which no zone moves', () => {
    expect(presetPeriod('7', '2026-03-31')).toEqual({ from: '2026-03-25', to: '2026-03-31' });
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
  });

  it('says why a custom period cannot be asked for', () => {
    expect(customProblem('2026-11-20', '2026-11-25')).toBeNull();
    expect(customProblem('2026-11-25', '2026-11-25')).toBeNull();
    expect(customProblem('2026-11-26', '2026-11-25')).toBe('The first day must not be after the last.');
    expect(customProblem('', '2026-11-25')).toBe('Choose both days of the period.');
  });
});
