// The report's CSV cells (finding 8 of issue 30): Excel in a semicolon locale (uk, de, pl, ru) splits
// an unquoted cell at `;`, so `x;=1+1` became a cell of its own starting with `=`. Every text cell is
// quoted (quotes doubled, RFC 4180), a formula start is defused with `'`, and a value is one line.
import { describe, expect, it } from 'vitest';
import { csvCell } from '../../../server/src/report/report-csv.ts';
import { FORMULA_START, readCsv } from '../../support/hostile-values.ts';

const VALUES = ['x;=1+1', 'a,b', 'say "hi"', 'one\ntwo', '=1+1', '+1', '-1', '@SUM(A1)', '\t=1+1', '\r=1+1', 'google', '', "'quoted", 'x;"=1+1";y'];

describe('report CSV cells', () => {
  it('quotes every text cell, doubling its quotes, so no locale splits it', () => {
    for (const value of VALUES) expect(csvCell(value), JSON.stringify(value)).toMatch(/^"(?:[^"]|"")*"$/);
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('x;=1+1')).toBe('"x;=1+1"');
    expect(csvCell(7)).toBe('7');
    expect(csvCell(null)).toBe('');
  });

  it('keeps each value one cell starting with no formula character, read with "," or ";"', () => {
    for (const value of VALUES) {
      // A report row: the group's text cell, then its counts.
      const line = [csvCell(value), csvCell(3), csvCell(null)].join(',');
      for (const delimiter of [',', ';']) {
        const rows = readCsv(`${line}\r\n`, delimiter);
        expect(rows, `${JSON.stringify(value)} with "${delimiter}"`).toHaveLength(1);
        for (const cell of rows[0]!) expect(cell, `${JSON.stringify(value)} with "${delimiter}"`).not.toMatch(FORMULA_START);
      }
      expect(readCsv(`${line}\r\n`)[0], JSON.stringify(value)).toHaveLength(3);
    }
    // Line breaks become a space: a cell is one line in every spreadsheet.
    expect(readCsv(`${csvCell('one\r\ntwo')}\r\n`)).toEqual([['one two']]);
    expect(readCsv(`${csvCell('=1+1')}\r\n`)).toEqual([["'=1+1"]]);
  });
});
