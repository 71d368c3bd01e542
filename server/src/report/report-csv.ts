// The report's groups as CSV (RFC 4180), for a spreadsheet. Every cell is quoted when it needs to
// be, and a text cell a spreadsheet would read as a formula (= + - @, tab, carriage return at its
// start: a utm value is whatever a link said) is prefixed with ' so it stays text (OWASP's advice).
import type { LeadReport } from './lead-report.ts';

const COLUMNS = ['opened', 'requested', 'placed', 'answered', 'talked', 'missed', 'failed', 'medianAnswerSeconds'] as const;

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function reportCsv(report: LeadReport): string {
  const lines = [[report.by, ...COLUMNS].join(',')];
  for (const g of report.groups) lines.push([csvCell(g.key), ...COLUMNS.map((c) => csvCell(g[c]))].join(','));
  lines.push([csvCell('(total)'), ...COLUMNS.map((c) => csvCell(report.totals[c]))].join(','));
  return `${lines.join('\r\n')}\r\n`;
}
