// The csv export of `/calls/list`: semicolon-separated (facts: doc) with a header row of field names.
// Parsed by csv-parse: RFC 4180 quoting (a quoted cell may hold `;`, `"` doubled, and line breaks:
// `landing` and `refferrer` are URLs and user text can be anything), a BOM, CRLF or LF line ends.
// Every value comes out as a string; call-fields.ts reads the types.
import { parse } from 'csv-parse/sync';

export class CsvError extends Error {
  override readonly name = 'CsvError';
}

/** Rows as objects keyed by the header row. Blank lines are skipped; a ragged or cut-off row is an error. */
export function parseCsvRecords(text: string, separator = ';'): Array<Record<string, string>> {
  try {
    return parse(text, {
      delimiter: separator,
      columns: (header: string[]) => header.map((name) => name.trim()),
      bom: true,
      skip_empty_lines: true,
    }) as Array<Record<string, string>>;
  } catch (err) {
    throw new CsvError((err as Error).message);
  }
}
