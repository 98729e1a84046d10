import { useEffect, useState } from 'react';
import { host } from '../../host/hostContext';
import { isFlowDocument } from '../../model/documentKind';
import { crewInputs, type CrewInput } from '../crewInputs';
import type { DialogErrorValue } from '../DialogError';
import { saveOpenDocument } from '../saveOpenDocument';
import type { TableRow } from './batchTable';

/** The crew a batch runs: its name and its inputs (the table's columns). */
export interface BatchCrew {
  name: string;
  inputs: CrewInput[];
}

/**
 * Saves the open document, reads it back as the crew the batch runs (a flow is refused) and starts
 * the table with one blank row. Holds the table's rows and the dialog's error too, as the reading sets them.
 */
export function useBatchCrew(path: string) {
  const [crew, setCrew] = useState<BatchCrew>();
  const [rows, setRows] = useState<TableRow[]>([]);
  const [error, setError] = useState<DialogErrorValue>();

  useEffect(() => {
    let live = true;
    // Every failure is caught inside and shown in the dialog.
    void (async () => {
      try {
        const unsaved = await saveOpenDocument(path);
        if (unsaved) {
          if (live) setError({ message: unsaved });
          return;
        }
        const read = await host().invoke('documents.read', { path });
        if (!live) return;
        const doc = read.document as { name?: unknown } | null;
        if (isFlowDocument(doc)) {
          setError({ message: `${path} is not a crew: a flow runs once per item of a list with a for_each method.` });
          return;
        }
        const inputs = crewInputs(doc);
        setCrew({ name: typeof doc?.name === 'string' ? doc.name : path, inputs });
        setRows([inputs.map(() => '')]);
        if (read.problems.length > 0) setError({ message: 'The saved crew has problems; the runs will be refused until they are fixed.', problems: read.problems });
      } catch (e) {
        if (live) setError({ message: e instanceof Error ? e.message : String(e) });
      }
    })();
    return () => {
      live = false;
    };
  }, [path]);

  return { crew, rows, setRows, error, setError };
}
