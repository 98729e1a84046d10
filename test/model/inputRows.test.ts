import { describe, expect, it } from 'vitest';
import { guessInputRowsFormat, InputRowsInvalid, inputRowsFormatOf, parseInputRows } from '../../shared/inputRows';

/** The one rows parser of `crewdeck run --inputs-file` and the app's *Run for each row…*. */
describe('parseInputRows', () => {
  it('reads CSV with a BOM, CRLF line ends, quoted commas, doubled quotes and a line break inside quotes', () => {
    const text = '\uFEFFcity,tone\r\n"Oslo","dry, ""short"""\r\nLima,"two\nlines"\r\n\r\n';
    expect(parseInputRows(text, 'csv')).toEqual([
      { city: 'Oslo', tone: 'dry, "short"' },
      { city: 'Lima', tone: 'two\nlines' },
    ]);
  });

  it('reads TSV as a spreadsheet copies it, and JSON lines with non-string values as their text', () => {
    // An empty cell is no value (the input's default applies); a quoted "" is the empty text.
    expect(parseInputRows('city\ttone\nGhent\t\n', 'tsv')).toEqual([{ city: 'Ghent' }]);
    expect(parseInputRows('a,b,c\n1,"",\n', 'csv')).toEqual([{ a: '1', b: '' }]);
    expect(parseInputRows('{"n": 3, "ok": true, "tags": ["a"]}\n', 'jsonl')).toEqual([{ n: '3', ok: 'true', tags: '["a"]' }]);
  });

  it('names the line of each problem', () => {
    const problem = (text: string, format: 'csv' | 'jsonl') => {
      try {
        parseInputRows(text, format);
      } catch (error) {
        if (error instanceof InputRowsInvalid) return error.problems;
        throw error;
      }
      return undefined;
    };
    expect(problem('city,tone\nGhent,warm,extra\n', 'csv')).toEqual([{ path: 'line 2', message: 'expected 2 values (city, tone), got 3' }]);
    expect(problem('city,\nGhent,warm\n', 'csv')).toEqual([{ path: 'line 1', message: 'column 2 has no name' }]);
    expect(problem('{"city": "Ghent"}\n[1, 2]\n', 'jsonl')).toEqual([{ path: 'line 2', message: 'each line must be a JSON object of input names to values' }]);
  });

  it('tells formats by file name and guesses pasted text', () => {
    expect([inputRowsFormatOf('a.CSV'), inputRowsFormatOf('b.tsv'), inputRowsFormatOf('c.jsonl'), inputRowsFormatOf('d.json')]).toEqual(['csv', 'tsv', 'jsonl', undefined]);
    expect(guessInputRowsFormat('\n  {"city": "Ghent"}')).toBe('jsonl');
    expect(guessInputRowsFormat('city\ttone\nGhent\twarm')).toBe('tsv');
    expect(guessInputRowsFormat('city,tone\nGhent,warm')).toBe('csv');
  });
});
