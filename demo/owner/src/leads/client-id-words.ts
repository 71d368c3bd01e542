// A lead's Google Analytics client id, or why it has none, as the owner reads it: the widget reads
// the tracking cookies only with the visitor's analytics consent (docs/embedding.md, Consent).
import type { OwnerLead } from '../types.ts';

const SOURCE: Record<NonNullable<OwnerLead['consentSource']>, string> = {
  tcf: 'the consent banner (IAB TCF)',
  'consent-mode': 'Google Consent Mode',
  cookiebot: 'Cookiebot',
  onetrust: 'OneTrust',
  command: "the site's dialback('consent')",
  none: 'the site',
};

const from = (source: OwnerLead['consentSource']) => (source ? ` (${SOURCE[source]})` : '');

/** `kept`: whether the relay still keeps the lead's request (a period's old lead keeps only its report fact). */
export function clientIdWords(lead: Pick<OwnerLead, 'clientId' | 'consent' | 'consentSource'>, kept = true): string {
  if (lead.clientId) return lead.clientId;
  if (lead.consent === 'denied') return `None: the visitor declined analytics${from(lead.consentSource)}, so no cookie was read`;
  if (lead.consent === 'unknown') return `None: the visitor had not answered about analytics${from(lead.consentSource)}, so no cookie was read`;
  if (!kept) return '—';
  return lead.consent === '' ? 'None' : 'None: no analytics cookie (_ga, rngst) on the visitor’s browser';
}
