// A light phone table for typing help only: calling code, trunk prefix, national number lengths,
// how people group digits, and an example. The relay (libphonenumber-js with full metadata) decides
// what is valid; this table keeps the browser bundle free of that metadata.

export interface CountryPhone {
  /** Country calling code without the plus. */
  code: string;
  /**
   * The trunk prefixes dialled before national numbers at home, one digit each, '' for none: the
   * first is the one written today (`0` in UA, `8` in RU), any other an older one people still type
   * and the relay still reads (LT moved from 8 to 0).
   */
  trunk: string;
  /** Length range of the national significant number. */
  min: number;
  max: number;
  /** Digit groups of the national significant number, e.g. UA 50 123 45 67 → [2, 3, 2, 2]. */
  groups: readonly number[];
  /** An example national significant number (shown as a hint). */
  example: string;
}

const c = (code: string, trunk: string, min: number, max: number, groups: number[], example: string): CountryPhone => ({
  code,
  trunk,
  min,
  max,
  groups,
  example,
});

const table = {
  UA: c('380', '0', 9, 9, [2, 3, 2, 2], '501234567'),
  PL: c('48', '', 9, 9, [3, 3, 3], '512345678'),
  DE: c('49', '0', 6, 11, [3, 4, 4], '15123456789'),
  GB: c('44', '0', 9, 10, [4, 6], '7400123456'),
  US: c('1', '', 10, 10, [3, 3, 4], '2015550123'),
  CA: c('1', '', 10, 10, [3, 3, 4], '5062345678'),
  MD: c('373', '0', 8, 8, [2, 3, 3], '62112345'),
  RO: c('40', '0', 9, 9, [3, 3, 3], '712034567'),
  CZ: c('420', '', 9, 9, [3, 3, 3], '601123456'),
  SK: c('421', '0', 9, 9, [3, 3, 3], '912123456'),
  LT: c('370', '08', 8, 8, [3, 5], '61234567'),
  LV: c('371', '', 8, 8, [2, 3, 3], '21234567'),
  EE: c('372', '', 7, 8, [4, 4], '51234567'),
  AT: c('43', '0', 4, 13, [3, 4, 4], '6641234567'),
  CH: c('41', '0', 9, 9, [2, 3, 2, 2], '781234567'),
  FR: c('33', '0', 9, 9, [1, 2, 2, 2, 2], '612345678'),
  IT: c('39', '', 6, 11, [3, 3, 4], '3123456789'),
  ES: c('34', '', 9, 9, [3, 3, 3], '612345678'),
  NL: c('31', '0', 9, 9, [1, 4, 4], '612345678'),
  BE: c('32', '0', 8, 9, [3, 2, 2, 2], '470123456'),
  GE: c('995', '0', 9, 9, [3, 2, 2, 2], '555123456'),
  AZ: c('994', '0', 9, 9, [2, 3, 2, 2], '401234567'),
  KZ: c('7', '8', 10, 10, [3, 3, 2, 2], '7710009998'),
  RU: c('7', '8', 10, 10, [3, 3, 2, 2], '9123456789'),
  IL: c('972', '0', 8, 9, [2, 3, 4], '502345678'),
  TR: c('90', '0', 10, 10, [3, 3, 2, 2], '5012345678'),
} as const satisfies Record<string, CountryPhone>;

/** A country of the table: every language catalog names each of them (i18n/types.ts). */
export type CountryCode = keyof typeof table;

export const countries: Readonly<Record<string, CountryPhone>> = table;
