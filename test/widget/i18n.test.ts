// Every catalog has a sentence for every relay error code, every outcome and every state, and
// plurals are right in each language (Intl.PluralRules picks the form).
import { describe, expect, test } from 'vitest';
import { errorStatus, callOutcomes } from '../../server/src/contract/contract.ts';
import { bugOnlyCodes } from '../../widget/src/api.ts';
import { messages as cs } from '../../widget/src/ui/i18n/cs.ts';
import { messages as de } from '../../widget/src/ui/i18n/de.ts';
import { messages as en } from '../../widget/src/ui/i18n/en.ts';
import { messages as es } from '../../widget/src/ui/i18n/es.ts';
import { messages as et } from '../../widget/src/ui/i18n/et.ts';
import { fill, plural } from '../../widget/src/ui/i18n/format.ts';
import { formatOpening } from '../../widget/src/ui/i18n/opening.ts';
import { messages as kk } from '../../widget/src/ui/i18n/kk.ts';
import { messages as lt } from '../../widget/src/ui/i18n/lt.ts';
import { messages as lv } from '../../widget/src/ui/i18n/lv.ts';
import { messages as pl } from '../../widget/src/ui/i18n/pl.ts';
import { messages as ro } from '../../widget/src/ui/i18n/ro.ts';
import { messages as ru } from '../../widget/src/ui/i18n/ru.ts';
import { messages as uk } from '../../widget/src/ui/i18n/uk.ts';
import type { Messages, Plural } from '../../widget/src/ui/i18n/types.ts';
import { launcherText } from '../../widget/src/launcher-text.ts';
import { closedSentence, errorSentence, retrySentence, setOpeningFormatter } from '../../widget/src/ui/messages.ts';
import { countries } from '../../widget/src/ui/phone/countries.ts';

const catalogs: Record<string, Messages> = { en, uk, ru, pl, de, cs, ro, lt, lv, et, kk, es };

test('a catalog for every language the entry speaks, and no other', () => {
  expect(Object.keys(catalogs).sort()).toEqual(Object.keys(launcherText).sort());
});

function strings(value: unknown, path = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => strings(v, path ? `${path}.${k}` : k));
}

/** The error codes grouped by the sentence they show, e.g. [['internal_error', 'bad_response', …], …]. */
function sentenceGroups(m: Messages): string[][] {
  const groups = new Map<string, string[]>();
  for (const [code, sentence] of Object.entries(m.errors)) groups.set(sentence, [...(groups.get(sentence) ?? []), code]);
  return [...groups.values()].map((codes) => codes.sort()).sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe.each(Object.entries(catalogs))('%s catalog', (lang, m) => {
  test('a sentence for every error code of the relay but those only a bug of ours could earn', () => {
    const sentences: Record<string, string | undefined> = m.errors;
    for (const code of Object.keys(errorStatus)) {
      if ((bugOnlyCodes as readonly string[]).includes(code)) expect(sentences[code], code).toBeUndefined();
      else expect(sentences[code], code).toMatch(/\S{2,}/);
    }
  });

  test('codes share a sentence exactly where English shares it (a merge or split in one language only is a slip)', () => {
    expect(sentenceGroups(m)).toEqual(sentenceGroups(en));
  });

  test('a text for every call outcome', () => {
    for (const outcome of callOutcomes) expect(m.outcomes[outcome], outcome).toMatch(/\S{2,}/);
  });

  test('no empty texts, and the same keys and placeholders as English (no key of its own either)', () => {
    const mine = new Map(strings(m));
    const english = new Map(strings(en));
    for (const [key, text] of english) {
      if (/\.(one|few|many|two|zero)$/.test(key)) continue; // plural forms differ by language
      expect(mine.get(key), key).toBeTruthy();
      const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((x) => x[1]).sort();
      expect(placeholders(mine.get(key)!), key).toEqual(placeholders(text));
    }
    for (const [key, text] of mine) {
      expect(text.trim(), key).not.toBe('');
      if (!/\.(one|few|many|two|zero)$/.test(key)) expect(english.has(key), key).toBe(true);
    }
  });

  test("names every country of the phone table, in the language's alphabetical order, as Intl names it", () => {
    expect(Object.keys(m.countryNames).sort()).toEqual(Object.keys(countries).sort());
    const names = Object.values(m.countryNames);
    const collator = new Intl.Collator(lang);
    expect([...names].sort(collator.compare)).toEqual(names);
    // Written out from Intl.DisplayNames (phone/names.ts says why not asked of it in the browser).
    const intl = new Intl.DisplayNames([lang], { type: 'region' });
    for (const [iso, name] of Object.entries(m.countryNames)) expect(name, iso).toBe(intl.of(iso));
  });

  test("the launcher label matches the entry's own copy", () => {
    expect(launcherText[lang as keyof typeof launcherText]).toBe(m.launcher);
  });

  test('written in its own language: no sentence left in English (country names aside)', () => {
    if (lang === 'en') return;
    const english = new Map(strings(en));
    for (const [key, text] of strings(m)) if (!key.startsWith('countryNames.') && key !== 'country') expect(text, key).not.toBe(english.get(key));
  });

  test('the invitation has its two sentences in this language too', () => {
    expect(m.invite).toHaveLength(2);
    for (const text of m.invite) expect(text).toMatch(/\S{2,}/);
  });

  test("the language's own country is one of the phone table's", () => {
    expect(Object.keys(countries)).toContain(m.country);
  });

  test('every plural form whole counts need exists; `other` may stand for `many`, never for another', () => {
    const rules = new Intl.PluralRules(lang);
    const needed = new Set([0, 1, 2, 3, 5, 11, 21, 22, 25, 101].map((n) => rules.select(n)));
    for (const forms of [m.estimate, m.retryInSeconds, m.retryInMinutes] as Plural[]) {
      for (const form of needed) if (form !== 'many') expect(forms[form], form).toBeTruthy();
      // Where `other` stands for `many`, it is not the `few` form (the fraction form in uk/ru/pl).
      if (needed.has('many') && !forms.many) expect(forms.other).not.toBe(forms.few);
    }
  });
});

describe('plurals', () => {
  test.each([
    ['en', 1, 'Your phone should ring in about 1 second.'],
    ['en', 30, 'Your phone should ring in about 30 seconds.'],
    ['uk', 1, 'Ваш телефон задзвонить приблизно за 1 секунду.'],
    ['uk', 3, 'Ваш телефон задзвонить приблизно за 3 секунди.'],
    ['uk', 25, 'Ваш телефон задзвонить приблизно за 25 секунд.'],
    ['uk', 21, 'Ваш телефон задзвонить приблизно за 21 секунду.'],
    ['ru', 22, 'Ваш телефон зазвонит примерно через 22 секунды.'],
    ['ru', 11, 'Ваш телефон зазвонит примерно через 11 секунд.'],
    ['ru', 0, 'Ваш телефон зазвонит примерно через 0 секунд.'],
    ['uk', 5, 'Ваш телефон задзвонить приблизно за 5 секунд.'],
    ['uk', 111, 'Ваш телефон задзвонить приблизно за 111 секунд.'],
    ['pl', 1, 'Twój telefon powinien zadzwonić za około 1 sekundę.'],
    ['pl', 4, 'Twój telefon powinien zadzwonić za około 4 sekundy.'],
    ['pl', 12, 'Twój telefon powinien zadzwonić za około 12 sekund.'],
    ['pl', 22, 'Twój telefon powinien zadzwonić za około 22 sekundy.'],
    ['de', 1, 'Ihr Telefon sollte in etwa 1 Sekunde klingeln.'],
    ['de', 20, 'Ihr Telefon sollte in etwa 20 Sekunden klingeln.'],
    ['cs', 1, 'Telefon by vám měl zazvonit asi za 1 sekundu.'],
    ['cs', 3, 'Telefon by vám měl zazvonit asi za 3 sekundy.'],
    ['cs', 25, 'Telefon by vám měl zazvonit asi za 25 sekund.'],
    ['ro', 1, 'Telefonul ar trebui să vă sune în aproximativ 1 secundă.'],
    ['ro', 15, 'Telefonul ar trebui să vă sune în aproximativ 15 secunde.'],
    ['ro', 25, 'Telefonul ar trebui să vă sune în aproximativ 25 de secunde.'],
    ['lt', 21, 'Jūsų telefonas turėtų suskambėti maždaug po 21 sekundės.'],
    ['lt', 5, 'Jūsų telefonas turėtų suskambėti maždaug po 5 sekundžių.'],
    ['lt', 15, 'Jūsų telefonas turėtų suskambėti maždaug po 15 sekundžių.'],
    ['lv', 1, 'Jūsu tālrunis zvanīs aptuveni pēc 1 sekundes.'],
    ['lv', 10, 'Jūsu tālrunis zvanīs aptuveni pēc 10 sekundēm.'],
    ['lv', 25, 'Jūsu tālrunis zvanīs aptuveni pēc 25 sekundēm.'],
    ['et', 1, 'Teie telefon peaks helisema umbes 1 sekundi pärast.'],
    ['et', 25, 'Teie telefon peaks helisema umbes 25 sekundi pärast.'],
    ['kk', 25, 'Телефоныңыз шамамен 25 секундтан кейін шырылдайды.'],
    ['es', 1, 'Su teléfono debería sonar en aproximadamente 1 segundo.'],
    ['es', 25, 'Su teléfono debería sonar en aproximadamente 25 segundos.'],
  ])('%s, %d', (lang, n, expected) => {
    expect(plural(lang, catalogs[lang]!.estimate, n)).toBe(expected);
  });

  test('retry times switch to minutes from 90 seconds', () => {
    expect(retrySentence('en', en, 45)).toBe('Please try again in 45 seconds.');
    expect(retrySentence('en', en, 120)).toBe('Please try again in 2 minutes.');
    expect(retrySentence('uk', uk, 300)).toBe('Спробуйте ще раз через 5 хвилин.');
    expect(retrySentence('ru', ru, 60)).toBe('Попробуйте снова через 60 секунд.');
    expect(retrySentence('cs', cs, 180)).toBe('Zkuste to prosím znovu za 3 minuty.');
    expect(retrySentence('lt', lt, 1260)).toBe('Bandykite dar kartą po 21 minutės.');
    expect(retrySentence('ro', ro, 1200)).toBe('Încercați din nou peste 20 de minute.');
  });
});

describe('sentences', () => {
  test('fill leaves unknown placeholders visible', () => {
    expect(fill('We will call {phone}{x}.', { phone: '+380 50 123 45 67' })).toBe('We will call +380 50 123 45 67{x}.');
  });

  test('rate_limited says when to try again; closed says when we open', () => {
    expect(errorSentence('en', en, { code: 'rate_limited', field: null, retryAfter: 30 })).toBe('Too many requests for now. Please try again in 30 seconds.');
    setOpeningFormatter(formatOpening);
    const nextOpenAt = new Date(Date.now() + 86_400_000);
    nextOpenAt.setHours(9, 0, 0, 0);
    expect(errorSentence('en', en, { code: 'closed', field: null, nextOpenAt: nextOpenAt.toISOString() })).toMatch(/^We are closed now\. We open tomorrow, 09:00 AM\.$/);
    expect(closedSentence('en', en, null)).toBe('We are closed now.');
  });

  test("opening time in the visitor's words: today, tomorrow, a weekday, a date", () => {
    const now = new Date(2026, 4, 11, 20, 0); // Monday 11 May 2026, 20:00 local
    const at = (days: number, h: number) => new Date(2026, 4, 11 + days, h, 30).toISOString();
    expect(formatOpening('en', at(0, 21), now)).toBe('today, 09:30 PM');
    expect(formatOpening('en', at(1, 9), now)).toBe('tomorrow, 09:30 AM');
    expect(formatOpening('uk', at(1, 9), now)).toBe('завтра, 09:30');
    expect(formatOpening('de', at(3, 9), now)).toBe('Donnerstag, 09:30');
    expect(formatOpening('pl', at(10, 9), now)).toBe('21 maja, 09:30');
    expect(formatOpening('lt', at(1, 9), now)).toBe('rytoj, 09:30');
    expect(formatOpening('kk', at(3, 9), now)).toBe('бейсенбі, 09:30');
    expect(formatOpening('es', at(10, 9), now)).toBe('21 de mayo, 09:30');
    expect(formatOpening('en', 'not a date', now)).toBeNull();
  });
});
