import { readFileSync } from 'node:fs';
import { DocumentInvalid } from '../errors';

/**
 * The rows of `crewdeck run --inputs-file`: one set of inputs per row. A `.csv` file's header names the
 * inputs (RFC 4180 quoting: "a, b" and "" for a quote inside quotes); a `.jsonl` file holds one JSON
 * object per line (numbers and booleans become their text, as with --inputs). Problems name the file
 * and line.
 */
export function readInputRows(file: string): Record<string, string>[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    throw new DocumentInvalid(file, [{ path: '(file)', message: `cannot read the inputs file: ${(error as Error).message}` }]);
  }
  const rows = /\.csv$/i.test(file) ? csvRows(file, text) : /\.jsonl$/i.test(file) ? jsonlRows(file, text) : undefined;
  if (rows === undefined) throw new DocumentInvalid(file, [{ path: '(file)', message: 'the inputs file must end in .csv (header = input names) or .jsonl (one JSON object per line)' }]);
  if (rows.length === 0) throw new DocumentInvalid(file, [{ path: '(file)', message: 'the inputs file has no rows' }]);
  return rows;
}

function jsonlRows(file: string, text: string): Record<string, string>[] {
  const rows: Record<string, string>[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new DocumentInvalid(file, [{ path: `line ${i + 1}`, message: `not valid JSON: ${(error as Error).message}` }]);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new DocumentInvalid(file, [{ path: `line ${i + 1}`, message: 'each line must be a JSON object of input names to values' }]);
    const row: Record<string, string> = {};
    for (const [k, v] of Object.entries(value)) row[k] = typeof v === 'string' ? v : JSON.stringify(v);
    rows.push(row);
  });
  return rows;
}

function csvRows(file: string, text: string): Record<string, string>[] {
  const records = parseCsv(file, text);
  const [header, ...body] = records;
  if (!header || header.every((h) => h.value.trim() === '')) throw new DocumentInvalid(file, [{ path: 'line 1', message: 'the first line must name the inputs' }]);
  const names = header.map((h) => h.value.trim());
  const dup = names.find((n, i) => n === '' || names.indexOf(n) !== i);
  if (dup !== undefined) throw new DocumentInvalid(file, [{ path: 'line 1', message: dup === '' ? 'a column has no name' : `the column "${dup}" appears twice` }]);
  return body
    .filter((cells) => !(cells.length === 1 && cells[0].value === ''))
    .map((cells) => {
      if (cells.length !== names.length) {
        throw new DocumentInvalid(file, [{ path: `line ${cells[0].line}`, message: `expected ${names.length} values (${names.join(', ')}), got ${cells.length}` }]);
      }
      return Object.fromEntries(names.map((n, i) => [n, cells[i].value]));
    });
}

/** Records of cells, each with the line its record starts on. */
function parseCsv(file: string, text: string): { value: string; line: number }[][] {
  const records: { value: string; line: number }[][] = [];
  let record: { value: string; line: number }[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  let i = 0;
  let quoted = false;
  let quoteLine = 0;
  const endCell = () => {
    record.push({ value: cell, line: recordLine });
    cell = '';
  };
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line += 1;
        cell += ch;
      }
      i += 1;
      continue;
    }
    if (ch === '"' && cell === '') {
      quoted = true;
      quoteLine = line;
    } else if (ch === ',') endCell();
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      endCell();
      records.push(record);
      record = [];
      line += 1;
      recordLine = line;
    } else cell += ch;
    i += 1;
  }
  if (quoted) throw new DocumentInvalid(file, [{ path: `line ${quoteLine}`, message: 'a quoted value is never closed' }]);
  if (cell !== '' || record.length > 0) {
    endCell();
    records.push(record);
  }
  return records;
}
