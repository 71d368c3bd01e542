// Messenger links of one embed: `data-telegram` (a username), `data-whatsapp` and `data-viber`
// (international numbers), each checked and turned into the link the messenger's app opens. A bad
// value is left out with one console warning naming the attribute: the site owner finds the typo,
// the visitor never sees a link that leads nowhere.

export type Channel = 'telegram' | 'whatsapp' | 'viber';

export interface MessengerLink {
  channel: Channel;
  /** The messenger's own name, the same in every language. */
  label: string;
  href: string;
}

/** Telegram's rule: 5–32 of a–z, 0–9 and _, starting with a letter; written with or without the @. */
export function telegramUser(value: string): string | null {
  return /^@?([a-z]\w{4,31})$/i.exec(value)?.[1] ?? null;
}

/**
 * An international number as people write it (`+380 44 111-22-33`) → its digits, else null. Both
 * messengers need the country code, so a national number (leading 0) is refused; 8–15 digits is
 * E.164's range for a full number.
 */
export function internationalDigits(value: string): string | null {
  return /^\+?([1-9]\d{7,14})$/.exec(value.replace(/[\s().-]/g, ''))?.[1] ?? null;
}

/** Each channel: its label, how its value is checked, and the link its checked value goes after. */
const channels: ReadonlyArray<[Channel, string, (value: string) => string | null, string]> = [
  ['telegram', 'Telegram', telegramUser, 'https://t.me/'],
  ['whatsapp', 'WhatsApp', internationalDigits, 'https://wa.me/'],
  ['viber', 'Viber', internationalDigits, 'viber://chat?number=%2B'],
];

/** The links `read('telegram')` etc. describe, in a fixed order; `warn` hears once per bad value. */
export function messengerLinks(read: (name: Channel) => string | null, warn: (message: string) => void): MessengerLink[] {
  const links: MessengerLink[] = [];
  for (const [channel, label, check, prefix] of channels) {
    const value = read(channel);
    if (!value) continue;
    const checked = check(value);
    if (checked) links.push({ channel, label, href: prefix + checked });
    else warn(`[dialback] ignored data-${channel}: ${value}`);
  }
  return links;
}
