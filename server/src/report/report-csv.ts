// The report's groups as CSV (RFC 4180), for a spreadsheet, written a line at a time. Every text
// cell is quoted (its quotes doubled), so no spreadsheet splits it: Excel in a semicolon locale (uk,
// de, pl, ru) splits an unquoted cell at `;`, and `x;=1+1` would become a cell of its own starting
// with `=`. A text cell is one line (visitor-text/one-line.ts: a store may hold values kept before
// they were cleaned), and one a spreadsheet would read as a formula (= + - @, tab, carriage return
// at its start: a utm value is whatever a link said) is prefixed with ' so it stays text (OWASP's advice).
import { oneLine } from '../visitor-text/one-line.ts';
import type { LeadReport } from './lead-report.ts';

const COLUMNS = ['opened', 'requested', 'placed', 'answered', 'talked', 'missed', 'failed', 'noConsent', 'medianAnswerSeconds'] as const;

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const line = oneLine(value, 1000);
  const text = /^[=+\-@\t\r]/.test(line) ? `'${line}` : line;
  return `"${text.replace(/"/g, '""')}"`;
}

/** The CSV's lines, each ending in CRLF, to be streamed: the report's groups (at most REPORT_GROUPS and "(other)"), then "(total)". */
export function* reportCsv(report: LeadReport): Generator<string> {
  yield `${[report.by, ...COLUMNS].map(csvCell).join(',')}\r\n`;
  for (const g of report.groups) yield `${[csvCell(g.key), ...COLUMNS.map((c) => csvCell(g[c]))].join(',')}\r\n`;
  yield `${[csvCell('(total)'), ...COLUMNS.map((c) => csvCell(report.totals[c]))].join(',')}\r\n`;
}
