// The report's groups as CSV (RFC 4180), for a spreadsheet, written a line at a time. Every cell
// is quoted when it needs to be, and a text cell a spreadsheet would read as a formula (= + - @,
// tab, carriage return at its start: a utm value is whatever a link said) is prefixed with ' so it
// stays text (OWASP's advice).
import type { LeadReport } from './lead-report.ts';

const COLUMNS = ['opened', 'requested', 'placed', 'answered', 'talked', 'missed', 'failed', 'medianAnswerSeconds'] as const;

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV's lines, each ending in CRLF, to be streamed: the report's groups (at most REPORT_GROUPS and "(other)"), then "(total)". */
export function* reportCsv(report: LeadReport): Generator<string> {
  yield `${[report.by, ...COLUMNS].join(',')}\r\n`;
  for (const g of report.groups) yield `${[csvCell(g.key), ...COLUMNS.map((c) => csvCell(g[c]))].join(',')}\r\n`;
  yield `${[csvCell('(total)'), ...COLUMNS.map((c) => csvCell(report.totals[c]))].join(',')}\r\n`;
}
