// A lead's message, in the owner's language: a title, one sentence of what happened, then what a
// person needs to call back — the number (full, or masked with NOTIFY_MASK_NUMBER), the department,
// the state and the time in the project's zone, the booked time or the reason, the utm source,
// medium and campaign, the page — and a link to the lead in the owner view. Every value a visitor
// could have written (attribution, page, department) is one clean line in every part, so it cannot
// add a line of its own (clip), and is escaped in the HTML parts. The page is shown only when it is
// an http(s) URL: mail clients and Telegram make a link of it.
import { httpUrl } from '../../visitor-text/page-url.ts';
import type { NotifyTexts } from './catalog/index.ts';
import { clip, escapeHtml, formatTime, ownerLink } from './format.ts';
import type { LeadNotice, RenderedMessage } from './notice.ts';

export interface RenderOptions {
  texts: NotifyTexts;
  timeZone: string;
  publicUrl: string;
  maskNumber: boolean;
}

/** label, value; a value null is left out, '' shows the catalog's "none". */
type Field = [label: string, value: string | null];

function fieldsOf(n: LeadNotice, o: RenderOptions): Field[] {
  const { labels } = o.texts;
  const a = n.attribution;
  const when = (ms: number) => formatTime(ms, o.texts.locale, o.timeZone);
  const page = n.pageUrl === null ? null : httpUrl(n.pageUrl);
  return [
    [labels.number, o.maskNumber ? n.maskedNumber : n.e164],
    [labels.department, n.department === null ? null : clip(n.department)],
    [labels.state, o.texts.state[n.kind]],
    [labels.time, when(n.at)],
    [labels.bookedFor, n.scheduledFor === null ? null : when(n.scheduledFor)],
    [labels.reason, n.reason === null ? null : clip(n.reason)],
    [labels.source, clip(a.utmSource ?? '')],
    [labels.medium, clip(a.utmMedium ?? '')],
    [labels.campaign, clip(a.utmCampaign ?? '')],
    [labels.page, clip(page ?? '', 1000)],
  ];
}

export function renderLead(n: LeadNotice, o: RenderOptions): RenderedMessage {
  const { texts } = o;
  const title = texts.title[n.kind];
  const link = ownerLink(o.publicUrl, n.callbackId);
  const fields = fieldsOf(n, o)
    .filter((f): f is [string, string] => f[1] !== null)
    .map(([label, value]) => [label, value === '' ? texts.none : value] as const);
  const number = o.maskNumber ? n.maskedNumber : n.e164;

  const text = [`${title}: ${number}`, '', texts.lead[n.kind], '', ...fields.map(([l, v]) => `${l}: ${v}`), '', `${texts.open}: ${link}`, ''].join('\n');
  const rows = fields.map(([l, v]) => `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeHtml(l)}</th><td>${escapeHtml(v)}</td></tr>`).join('\n');
  const html = [
    `<!doctype html><html lang="${escapeHtml(texts.locale.slice(0, 2))}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>`,
    `<h2>${escapeHtml(title)}: ${escapeHtml(number)}</h2>`,
    `<p>${escapeHtml(texts.lead[n.kind])}</p>`,
    `<table>\n${rows}\n</table>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(texts.open)}</a></p>`,
    '</body></html>',
  ].join('\n');
  const telegram = [
    `<b>${escapeHtml(title)}: ${escapeHtml(number)}</b>`,
    escapeHtml(texts.lead[n.kind]),
    '',
    ...fields.map(([l, v]) => `${escapeHtml(l)}: ${escapeHtml(v)}`),
    '',
    `<a href="${escapeHtml(link)}">${escapeHtml(texts.open)}</a>`,
  ].join('\n');
  return { subject: `${title}: ${number}`, text, html, telegram };
}
