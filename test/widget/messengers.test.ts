// The messenger links' values: what each attribute accepts, the link it becomes, and the one warning
// a bad value earns (the link is then left out, the others stay).
import { describe, expect, test } from 'vitest';
import { internationalDigits, messengerLinks, telegramUser, type Channel } from '../../widget/src/ui/messengers/links.ts';

describe('telegramUser', () => {
  test.each([
    ['acme_support', 'acme_support'],
    ['@AcmePlumbing', 'AcmePlumbing'],
    ['abcde', 'abcde'],
    ['a'.repeat(32), 'a'.repeat(32)],
  ])('%s → %s', (value, name) => {
    expect(telegramUser(value)).toBe(name);
  });

  test.each([
    ['too short', 'abcd'],
    ['too long', 'a'.repeat(33)],
    ['starts with a digit', '1acme'],
    ['a space', 'acme support'],
    ['a link instead of a name', 'https://t.me/acme_support'],
    ['a query sneaked in', 'acme?start=x'],
    ['empty', ''],
  ])('refuses %s', (_, value) => {
    expect(telegramUser(value)).toBeNull();
  });
});

describe('internationalDigits', () => {
  test.each([
    ['+380 44 111 22 33', '380441112233'],
    ['380441112233', '380441112233'],
    ['+48 (22) 123-45-67', '48221234567'],
    ['+1 201.555.0123', '12015550123'],
  ])('%s → %s', (value, digits) => {
    expect(internationalDigits(value)).toBe(digits);
  });

  test.each([
    ['a national number (no country code)', '044 111 22 33'],
    ['too few digits', '+380 44'],
    ['more than E.164 allows', '+1234567890123456'],
    ['letters', '+380 44 CALL NOW'],
    ['two plus signs', '++380441112233'],
    ['a URL', 'https://wa.me/380441112233'],
  ])('refuses %s', (_, value) => {
    expect(internationalDigits(value)).toBeNull();
  });
});

describe('messengerLinks', () => {
  const read = (values: Partial<Record<Channel, string>>) => (name: Channel) => values[name] ?? null;

  test('each messenger its link, in a fixed order whatever the attributes', () => {
    const warnings: string[] = [];
    const links = messengerLinks(read({ viber: '+380 50 123 45 67', whatsapp: '+380 (50) 123-45-67', telegram: '@acme_support' }), (m) => warnings.push(m));
    expect(links).toEqual([
      { channel: 'telegram', label: 'Telegram', href: 'https://t.me/acme_support' },
      { channel: 'whatsapp', label: 'WhatsApp', href: 'https://wa.me/380501234567' },
      { channel: 'viber', label: 'Viber', href: 'viber://chat?number=%2B380501234567' },
    ]);
    expect(warnings).toEqual([]);
  });

  test('a bad value is left out with one warning naming its attribute; the good ones stay', () => {
    const warnings: string[] = [];
    const links = messengerLinks(read({ telegram: 'ab', whatsapp: '050 123 45 67', viber: '+380501234567' }), (m) => warnings.push(m));
    expect(links.map((l) => l.channel)).toEqual(['viber']);
    expect(warnings).toEqual(['[dialback] ignored data-telegram: ab', '[dialback] ignored data-whatsapp: 050 123 45 67']);
  });

  test('no attribute, no link and no warning', () => {
    const warnings: string[] = [];
    expect(messengerLinks(read({}), (m) => warnings.push(m))).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
