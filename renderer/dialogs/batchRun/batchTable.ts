import { guessInputRowsFormat, InputRowsInvalid, parseInputRows, type InputRowsFormat } from '../../../shared/inputRows';
import type { CrewInput } from '../crewInputs';

/**
 * The table of *Run for each row…*: one column per input of the crew, one row per run, each cell the
 * text of that input ('' = the input's default). Pasted text and loaded files are read by the CLI's
 * rules (shared/inputRows.ts: a header line of input names, then CSV, TSV or JSON lines).
 */
export type TableRow = string[];

export interface TableProblem {
  /** `row 2, column "city"`, `line 3`, … */
  where: string;
  message: string;
}

export type ReadRows = { ok: true; rows: TableRow[] } | { ok: false; problems: TableProblem[] };

/**
 * Rows from pasted text or a file's text, in the table's columns. `format` comes from a file's name;
 * pasted text is guessed (JSON lines start with `{`, a tab in the first line means a spreadsheet's TSV).
 * A column that is not one of the crew's inputs is refused (a typo would otherwise run with the default).
 */
export function readRows(text: string, inputs: CrewInput[], format: InputRowsFormat = guessInputRowsFormat(text)): ReadRows {
  let parsed: Record<string, string>[];
  try {
    parsed = parseInputRows(text, format);
  } catch (error) {
    if (error instanceof InputRowsInvalid) return { ok: false, problems: error.problems.map((p) => ({ where: p.path, message: p.message })) };
    throw error;
  }
  if (parsed.length === 0) {
    return { ok: false, problems: [{ where: 'line 1', message: `no rows: the first line names the inputs (${names(inputs)}), each line after it is one run` }] };
  }
  const known = new Set(inputs.map((i) => i.name));
  const problems: TableProblem[] = [];
  parsed.forEach((row, i) => {
    for (const key of Object.keys(row)) {
      if (known.has(key)) continue;
      // CSV and TSV name their columns once, in the header; JSON lines name them on every line.
      const where = format === 'jsonl' ? `line ${i + 1}, "${key}"` : `line 1, column "${key}"`;
      if (!problems.some((p) => p.where === where)) problems.push({ where, message: `"${key}" is not an input of this crew (its inputs: ${names(inputs)})` });
    }
  });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, rows: parsed.map((row) => inputs.map((input) => row[input.name] ?? '')) };
}

/** Every problem of the table before anything runs: a row leaving a required input empty, named by row and column. */
export function checkRows(rows: TableRow[], inputs: CrewInput[]): TableProblem[] {
  if (rows.length === 0) return [{ where: 'table', message: 'add at least one row' }];
  const problems: TableProblem[] = [];
  rows.forEach((row, r) => {
    inputs.forEach((input, c) => {
      if ((row[c] ?? '').trim() === '' && input.default === undefined) {
        problems.push({ where: `row ${r + 1}, column "${input.name}"`, message: 'empty, and the crew has no default for it' });
      }
    });
  });
  return problems;
}

/** A row's inputs as a run takes them: empty cells left out, so the crew's defaults apply. */
export function rowInputs(row: TableRow, inputs: CrewInput[]): Record<string, string> {
  const out: Record<string, string> = {};
  inputs.forEach((input, c) => {
    const cell = row[c];
    if (cell !== undefined && cell.trim() !== '') out[input.name] = cell;
  });
  return out;
}

/** The rows that hold anything (a fresh table's blank row is not a run). */
export function filledRows(rows: TableRow[]): TableRow[] {
  return rows.filter((row) => row.some((cell) => cell.trim() !== ''));
}

/** `city=Ghent · tone=dry`, shortened for a table cell. */
export function summariseInputs(inputs: Record<string, string>, max = 80): string {
  const text = Object.entries(inputs)
    .map(([k, v]) => `${k}=${v.replace(/\s+/g, ' ')}`)
    .join(' · ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function names(inputs: CrewInput[]): string {
  return inputs.map((i) => i.name).join(', ') || 'none';
}
