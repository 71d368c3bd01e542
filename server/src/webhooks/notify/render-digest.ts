// The daily digest's message: the leads requested in the 24 hours before it, by utm source, with how
// many were answered, missed, failed, are still pending, or other (cancelled, or placed with an
// outcome the call log never showed). An aligned table in the text part and in Telegram (<pre>), an
// HTML table in the email. Sources are visitor-written: each is one clean line (visitor-text/; a
// store may hold older values) with single spaces, so it cannot add a row or shift the columns, and
// one that reads like the table's own words ("Total", "(no source)") is shown in quotes, so the
// table has one total row; escaped in the HTML parts.
import { oneLine } from '../../visitor-text/one-line.ts';
import type { NotifyTexts } from './catalog/index.ts';
import { clip, escapeHtml, fill, formatTime } from './format.ts';
import type { TallyOutcome, TallyRow } from './lead-tally.ts';
import type { RenderedMessage } from './notice.ts';

export interface DigestWindow {
  from: number;
  to: number;
}

const OUTCOMES = ['answered', 'missed', 'failed', 'pending', 'other'] as const satisfies readonly TallyOutcome[];
type Counts = Record<(typeof OUTCOMES)[number] | 'leads', number>;
const zero = (): Counts => ({ leads: 0, answered: 0, missed: 0, failed: 0, pending: 0, other: 0 });

/** Rows per source, most leads first, and the totals. */
export function digestTable(rows: readonly TallyRow[]): { sources: [string | null, Counts][]; total: Counts } {
  const bySource = new Map<string | null, Counts>();
  const total = zero();
  for (const row of rows) {
    // Grouped as shown: values an older relay kept with controls in them fall in with their clean twin.
    const source = row.source === null ? null : oneLine(row.source, 200).replace(/\s+/g, ' ') || null;
    let counts = bySource.get(source);
    if (!counts) bySource.set(source, (counts = zero()));
    for (const c of [counts, total]) {
      c.leads += row.count;
      c[row.outcome] += row.count;
    }
  }
  const sources = [...bySource].sort((a, b) => b[1].leads - a[1].leads || String(a[0]).localeCompare(String(b[0])));
  return { sources, total };
}

/** A source as its row shows it: in quotes when it starts like one of the table's own words, so no source passes for the total. */
function shownSource(source: string, d: NotifyTexts['digest']): string {
  const text = clip(source, 40);
  const lower = text.toLowerCase();
  const own = [d.total, d.direct, d.source].some((word) => lower === word.toLowerCase() || lower.startsWith(`${word.toLowerCase()} `));
  return own ? `"${text}"` : text;
}

export function renderDigest(rows: readonly TallyRow[], window: DigestWindow, texts: NotifyTexts, timeZone: string, ownerUrl: string): RenderedMessage {
  const d = texts.digest;
  const day = new Intl.DateTimeFormat(texts.locale, { timeZone, dateStyle: 'long' }).format(window.to - 1);
  const title = fill(d.title, { day });
  const period = fill(d.period, { from: formatTime(window.from, texts.locale, timeZone), to: formatTime(window.to, texts.locale, timeZone) });
  const { sources, total } = digestTable(rows);
  const header = [d.source, d.leads, ...OUTCOMES.map((o) => d[o])];
  const lines: string[][] = [
    header,
    ...sources.map(([source, c]) => [source === null ? d.direct : shownSource(source, d), ...(['leads', ...OUTCOMES] as const).map((k) => String(c[k]))]),
    [d.total, ...(['leads', ...OUTCOMES] as const).map((k) => String(total[k]))],
  ];
  const widths = header.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
  const aligned = lines.map((l) =>
    l
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
  const table = total.leads === 0 ? d.empty : aligned.join('\n');

  const text = [title, period, '', table, '', `${d.open}: ${ownerUrl}`, ''].join('\n');
  const cell = (tag: string, value: string, i: number) => `<${tag} align="${i === 0 ? 'left' : 'right'}" style="padding:2px 8px">${escapeHtml(value)}</${tag}>`;
  const htmlTable =
    total.leads === 0
      ? `<p>${escapeHtml(d.empty)}</p>`
      : `<table>\n${lines.map((l, r) => `<tr>${l.map((v, i) => cell(r === 0 || r === lines.length - 1 ? 'th' : 'td', v, i)).join('')}</tr>`).join('\n')}\n</table>`;
  const html = [
    `<!doctype html><html lang="${escapeHtml(texts.locale.slice(0, 2))}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>`,
    `<h2>${escapeHtml(title)}</h2>`,
    `<p>${escapeHtml(period)}</p>`,
    htmlTable,
    `<p><a href="${escapeHtml(ownerUrl)}">${escapeHtml(d.open)}</a></p>`,
    '</body></html>',
  ].join('\n');
  const telegram = [
    `<b>${escapeHtml(title)}</b>`,
    escapeHtml(period),
    '',
    total.leads === 0 ? escapeHtml(d.empty) : `<pre>${escapeHtml(table)}</pre>`,
    '',
    `<a href="${escapeHtml(ownerUrl)}">${escapeHtml(d.open)}</a>`,
  ].join('\n');
  return { subject: title, text, html, telegram };
}
