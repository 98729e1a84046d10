import { useState } from 'react';
import { inputRowsFormatOf } from '../../../shared/inputRows';
import { HostCallError } from '../../host/hostError';
import { saveOpenDocument } from '../saveOpenDocument';
import { checkRows, readRows, rowInputs, type TableProblem } from './batchTable';
import { useBatchCrew } from './useBatchCrew';
import { useBatchRunStore } from './batchRunStore';

/** The batch form's state and actions: the crew and its rows, rows added from text, and starting the batch. */
export function useBatchRunForm(path: string) {
  const { crew, rows, setRows, error, setError } = useBatchCrew(path);
  const [concurrency, setConcurrency] = useState(2);
  const [starting, setStarting] = useState(false);

  const showProblems = (message: string, problems: TableProblem[]) => setError({ message, problems: problems.map((p) => ({ path: p.where, message: p.message })) });

  /** Rows read from text replace a table that is still blank, else go after its rows. */
  const addText = (text: string, source: string, fileName?: string) => {
    if (!crew) return;
    const format = fileName === undefined ? undefined : inputRowsFormatOf(fileName);
    if (fileName !== undefined && format === undefined) {
      setError({ message: `${fileName}: the file must end in .csv (header = input names), .tsv or .jsonl (one JSON object per line).` });
      return;
    }
    const read = readRows(text, crew.inputs, format);
    if (!read.ok) {
      showProblems(`${source} could not be read; nothing was added:`, read.problems);
      return;
    }
    setError(undefined);
    setRows((current) => (current.every((row) => row.every((cell) => cell.trim() === '')) ? read.rows : [...current, ...read.rows]));
  };

  const run = async () => {
    if (!crew || starting) return;
    const problems = checkRows(rows, crew.inputs);
    if (problems.length > 0) {
      showProblems('Fix these rows first; nothing has run:', problems);
      return;
    }
    setStarting(true);
    setError(undefined);
    try {
      const unsaved = await saveOpenDocument(path);
      if (unsaved) {
        setError({ message: unsaved });
        return;
      }
      await useBatchRunStore.getState().start(
        path,
        rows.map((row) => rowInputs(row, crew.inputs)),
        concurrency,
      );
    } catch (caught) {
      setError({ message: caught instanceof Error ? caught.message : String(caught), problems: caught instanceof HostCallError ? caught.problems : undefined });
    } finally {
      setStarting(false);
    }
  };

  return { crew, rows, setRows, concurrency, setConcurrency, starting, error, addText, run };
}
