import { readFileSync } from 'node:fs';
import { InputRowsInvalid, inputRowsFormatOf, parseInputRows, type InputRow } from '../../shared/inputRows';
import { DocumentInvalid } from '../errors';

/**
 * The rows of `crewdeck run --inputs-file`: one set of inputs per row, read by the parser the app uses
 * too (shared/inputRows.ts: CSV with a header of input names, TSV, or JSON lines). Problems name the
 * file and line.
 */
export function readInputRows(file: string): InputRow[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new DocumentInvalid(file, [{ path: '(file)', message: `cannot read the inputs file: ${(error as Error).message}` }]);
  }
  const format = inputRowsFormatOf(file);
  if (format === undefined) throw new DocumentInvalid(file, [{ path: '(file)', message: 'the inputs file must end in .csv (header = input names), .tsv or .jsonl (one JSON object per line)' }]);
  let rows: InputRow[];
  try {
    rows = parseInputRows(text, format);
  } catch (error) {
    if (error instanceof InputRowsInvalid) throw new DocumentInvalid(file, error.problems);
    throw error;
  }
  if (rows.length === 0) throw new DocumentInvalid(file, [{ path: '(file)', message: 'the inputs file has no rows' }]);
  return rows;
}
