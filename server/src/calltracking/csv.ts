// The csv export of `/calls/list`: semicolon-separated (facts: doc) with a header row of field names.
// Quoting follows RFC 4180 (a quoted cell may hold `;`, `"` doubled, and line breaks), since
// `landing` and `refferrer` are URLs and user text can be anything. A BOM and CRLF or LF line ends
// are accepted. Every value comes out as a string; call-fields.ts reads the types.

export class CsvError extends Error {
  override readonly name = 'CsvError';
}

/** Cells of each line, quotes resolved. */
export function parseCsvLines(text: string, separator = ';'): string[][] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  let atCellStart = true;
  while (i < src.length) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      cell += ch;
      i++;
      continue;
    }
    if (ch === '"' && atCellStart) {
      quoted = true;
      atCellStart = false;
      i++;
      continue;
    }
    if (ch === separator) {
      cells.push(cell);
      cell = '';
      atCellStart = true;
      i++;
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      cells.push(cell);
      lines.push(cells);
      cells = [];
      cell = '';
      atCellStart = true;
      i += ch === '\r' && src[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    cell += ch;
    atCellStart = false;
    i++;
  }
  if (quoted) throw new CsvError('the csv ends inside a quoted cell (cut off?)');
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    lines.push(cells);
  }
  return lines;
}

/** Rows as objects keyed by the header row. Blank lines are skipped; a ragged row is an error. */
export function parseCsvRecords(text: string, separator = ';'): Array<Record<string, string>> {
  const lines = parseCsvLines(text, separator).filter((cells) => !(cells.length === 1 && cells[0] === ''));
  const header = lines.shift();
  if (!header) return [];
  return lines.map((cells, index) => {
    if (cells.length !== header.length) {
      throw new CsvError(`csv row ${index + 1} has ${cells.length} cells, the header has ${header.length}`);
    }
    const row: Record<string, string> = {};
    header.forEach((name, i) => (row[name.trim()] = cells[i]!));
    return row;
  });
}
