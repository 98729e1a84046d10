import type { Problem } from './model/problems';

/**
 * Rows of inputs for running a crew once per row (`crewdeck run --inputs-file`, the app's *Run for
 * each row…*). One parser for both, so a file reads the same in the terminal and in the app:
 * - CSV: the header names the inputs; RFC 4180 quoting (`"a, b"`, `""` for a quote inside quotes);
 * - TSV: the same with tabs (what a spreadsheet puts on the clipboard);
 * - JSONL: one JSON object per line (numbers and booleans become their text, as with --inputs).
 * An empty CSV/TSV cell is no value (as a key left out of a JSON line); `""` is the empty text.
 * Blank lines are skipped. Problems name the line (`line 3`) and, where there is one, the column.
 */
export type InputRowsFormat = 'csv' | 'tsv' | 'jsonl';
export type InputRow = Record<string, string>;

/** Rows that cannot be read; `problems` name the line (and column) of each. */
export class InputRowsInvalid extends Error {
  override name = 'InputRowsInvalid';
  constructor(readonly problems: Problem[]) {
    super(problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
  }
}

/** The format a file name says (`.csv`, `.tsv`, `.jsonl`), or undefined. */
export function inputRowsFormatOf(fileName: string): InputRowsFormat | undefined {
  if (/\.csv$/i.test(fileName)) return 'csv';
  if (/\.tsv$/i.test(fileName)) return 'tsv';
  if (/\.jsonl$/i.test(fileName)) return 'jsonl';
  return undefined;
}

/** What pasted text most likely is: JSON lines when it starts with `{`, tab-separated when its first line has a tab, else CSV. */
export function guessInputRowsFormat(text: string): InputRowsFormat {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  if (first.trimStart().startsWith('{')) return 'jsonl';
  return first.includes('\t') ? 'tsv' : 'csv';
}

/** The rows of `text` in `format`, in order (possibly none). Throws InputRowsInvalid. */
export function parseInputRows(text: string, format: InputRowsFormat): InputRow[] {
  const clean = text.replace(/^\uFEFF/, '');
  return format === 'jsonl' ? jsonlRows(clean) : delimitedRows(clean, format === 'tsv' ? '\t' : ',');
}

function jsonlRows(text: string): InputRow[] {
  const rows: InputRow[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const deep = jsonNestedTooDeep(line);
    if (deep !== undefined) {
      throw new InputRowsInvalid([{ path: `line ${i + 1}`, message: `column ${deep}: the value nests more than ${MAX_VALUE_DEPTH} levels deep; an input is text, and a JSON value in it may nest up to ${MAX_VALUE_DEPTH} levels` }]);
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new InputRowsInvalid([{ path: `line ${i + 1}`, message: `not valid JSON: ${(error as Error).message}` }]);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new InputRowsInvalid([{ path: `line ${i + 1}`, message: 'each line must be a JSON object of input names to values' }]);
    }
    const row: InputRow = {};
    for (const [k, v] of Object.entries(value)) row[k] = typeof v === 'string' ? v : JSON.stringify(v);
    rows.push(row);
  });
  return rows;
}

/** How deep a JSON line's arrays and objects may nest (the row object itself is level 1). */
export const MAX_VALUE_DEPTH = 32;

/** The 1-based column where JSON text first nests past MAX_VALUE_DEPTH, if it does (strings skipped; linear). */
export function jsonNestedTooDeep(line: string): number | undefined {
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') {
      for (i++; i < line.length && line[i] !== '"'; i++) if (line[i] === '\\') i++;
    } else if (c === '[' || c === '{') {
      if (++depth > MAX_VALUE_DEPTH) return i + 1;
    } else if (c === ']' || c === '}') depth--;
  }
  return undefined;
}

function delimitedRows(text: string, delimiter: string): InputRow[] {
  // Every record has a cell at least (parseDelimited ends each with one): its [0] is there.
  const records = parseDelimited(text, delimiter).filter((cells) => !(cells.length === 1 && cells[0]!.value.trim() === ''));
  const [header, ...body] = records;
  if (!header) return [];
  const names = header.map((h) => h.value.trim());
  if (names.every((n) => n === '')) throw new InputRowsInvalid([{ path: `line ${header[0]!.line}`, message: 'the first line must name the inputs' }]);
  const dup = names.find((n, i) => n === '' || names.indexOf(n) !== i);
  if (dup !== undefined) {
    throw new InputRowsInvalid([{ path: `line ${header[0]!.line}`, message: dup === '' ? `column ${names.indexOf('') + 1} has no name` : `the column "${dup}" appears twice` }]);
  }
  return body.map((cells) => {
    if (cells.length !== names.length) {
      throw new InputRowsInvalid([{ path: `line ${cells[0]!.line}`, message: `expected ${names.length} values (${names.join(', ')}), got ${cells.length}` }]);
    }
    // An empty unquoted cell is no value (the input's default applies, or it is missing, as a key left
    // out of a JSON line); a quoted empty cell ("") is the empty text.
    // cells has one cell per name (checked above).
    return Object.fromEntries(
      names.flatMap((n, i) => {
        const cell = cells[i]!;
        return cell.value === '' && !cell.quoted ? [] : [[n, cell.value]];
      }),
    );
  });
}

interface Cell {
  value: string;
  /** The line its record starts on. */
  line: number;
  /** Written in quotes (so `""` is the empty text, not an empty cell). */
  quoted: boolean;
}

/** Records of cells. */
function parseDelimited(text: string, delimiter: string): Cell[][] {
  const records: Cell[][] = [];
  let record: Cell[] = [];
  let cell = '';
  let cellQuoted = false;
  let line = 1;
  let recordLine = 1;
  let i = 0;
  let quoted = false;
  let quoteLine = 0;
  const endCell = () => {
    record.push({ value: cell, line: recordLine, quoted: cellQuoted });
    cell = '';
    cellQuoted = false;
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
      cellQuoted = true;
      quoteLine = line;
    } else if (ch === delimiter) endCell();
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
  if (quoted) throw new InputRowsInvalid([{ path: `line ${quoteLine}`, message: 'a quoted value is never closed' }]);
  if (cell !== '' || record.length > 0) {
    endCell();
    records.push(record);
  }
  return records;
}
