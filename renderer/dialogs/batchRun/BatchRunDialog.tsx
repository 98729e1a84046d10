import { useEffect, useState, type ClipboardEvent } from 'react';
import { inputRowsFormatOf } from '../../../shared/inputRows';
import { HostCallError } from '../../host/hostError';
import { host } from '../../host/hostContext';
import { isFlowDocument } from '../../model/documentKind';
import { useDocumentStore } from '../../stores/documentStore';
import { crewInputs, type CrewInput } from '../crewInputs';
import { DialogError, type DialogErrorValue } from '../DialogError';
import { Modal } from '../Modal';
import { saveOpenDocument } from '../saveOpenDocument';
import { BatchResults } from './BatchResults';
import { checkRows, readRows, rowInputs, type TableProblem, type TableRow } from './batchTable';
import { useBatchRunStore } from './batchRunStore';
import '../../styles/batch-run.css';

/**
 * *Run for each row…* (opened from the Run dialog or the command palette): a table of inputs, one
 * column per input of the open crew and one row per run, filled by hand, by pasting (from a
 * spreadsheet, CSV or JSON lines) or from a .csv / .tsv / .jsonl file. Run starts one run per row
 * (`runs.startBatch`), then the dialog shows each row's status, usage and a link to its trace.
 */
export function BatchRunDialog() {
  const open = useBatchRunStore((s) => s.open);
  const path = useDocumentStore((s) => s.path);
  if (!open || !path) return null;
  return <BatchRunForm key={path} path={path} onClose={() => useBatchRunStore.getState().setOpen(false)} />;
}

const MAX_CONCURRENCY = 16;

function BatchRunForm({ path, onClose }: { path: string; onClose(): void }) {
  const batch = useBatchRunStore((s) => (s.batch?.path === path ? s.batch : undefined));
  const [crew, setCrew] = useState<{ name: string; inputs: CrewInput[] }>();
  const [rows, setRows] = useState<TableRow[]>([]);
  const [concurrency, setConcurrency] = useState(2);
  const [starting, setStarting] = useState(false);
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

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const text = e.clipboardData.getData('text/plain');
    if (!text) return;
    e.preventDefault();
    addText(text, 'The pasted rows');
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

  const title = `Run ${crew?.name ?? 'crew'} for each row`;
  if (batch) {
    return (
      <Modal
        testId="batch-dialog"
        title={title}
        subtitle={<code className="dialog-code">{path}</code>}
        onClose={onClose}
        width={920}
        footer={
          <>
            {batch.status === 'running' && (
              <button className="btn danger" data-testid="batch-stop" onClick={() => void useBatchRunStore.getState().cancel()}>
                ■ Stop the batch
              </button>
            )}
            <span className="modal-foot-spacer" />
            <button className="btn" data-testid="batch-new" onClick={() => useBatchRunStore.getState().clear()}>
              New batch…
            </button>
            <button className="btn primary" onClick={onClose}>
              Close
            </button>
          </>
        }
      >
        <BatchResults batch={batch} onOpenRun={onClose} />
      </Modal>
    );
  }

  const setCell = (r: number, c: number, value: string) => setRows((current) => current.map((row, i) => (i === r ? row.map((cell, j) => (j === c ? value : cell)) : row)));

  return (
    <Modal
      testId="batch-dialog"
      title={title}
      subtitle={<code className="dialog-code">{path}</code>}
      onClose={onClose}
      width={920}
      footer={
        <>
          <label className="batch-concurrency">
            Rows at a time
            <input
              type="number"
              className="dialog-input"
              data-testid="batch-concurrency"
              min={1}
              max={MAX_CONCURRENCY}
              value={concurrency}
              onChange={(e) => setConcurrency(Math.max(1, Math.min(MAX_CONCURRENCY, Math.round(Number(e.target.value) || 1))))}
            />
          </label>
          <span className="modal-foot-spacer" />
          <button className="btn" onClick={onClose}>
            Cancel
          </button>
          <button className="btn primary" data-testid="batch-run" disabled={!crew || starting || rows.length === 0} onClick={() => void run()}>
            {starting ? 'Starting…' : `▶ Run ${rows.length} row${rows.length === 1 ? '' : 's'}`}
          </button>
        </>
      }
    >
      {!crew && !error && <div className="dialog-hint">Reading the crew…</div>}
      {crew && (
        <div className="batch-edit">
          <div className="dialog-hint">
            One run per row. Paste rows copied from a spreadsheet, CSV or JSON lines — the first line names the inputs — or load a file. An empty cell uses the input’s default.
          </div>
          <div className="batch-sources">
            <textarea
              className="dialog-textarea batch-paste"
              data-testid="batch-paste"
              rows={2}
              placeholder={`Paste rows here (Ctrl+V), e.g.\n${crew.inputs.map((i) => i.name).join('\t')}`}
              value=""
              onChange={() => undefined}
              onPaste={onPaste}
              aria-label="Paste rows"
            />
            <label className="btn batch-file">
              Load .csv / .tsv / .jsonl…
              <input
                type="file"
                data-testid="batch-file"
                accept=".csv,.tsv,.jsonl,text/csv,text/tab-separated-values"
                hidden
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  if (file) void file.text().then((text) => addText(text, file.name, file.name));
                }}
              />
            </label>
          </div>
          {crew.inputs.length === 0 ? (
            <div className="dialog-hint">This crew takes no inputs: each row is one more run of it as it is.</div>
          ) : null}
          <div className="batch-table-wrap">
            <table className="batch-table" data-testid="batch-table">
              <thead>
                <tr>
                  <th className="batch-num">#</th>
                  {crew.inputs.map((input) => (
                    <th key={input.name} title={input.description}>
                      <code>{input.name}</code>
                      {input.default === undefined ? <span className="dialog-required">required</span> : <span className="batch-default">default: {input.default}</span>}
                    </th>
                  ))}
                  <th className="batch-remove-col" />
                </tr>
              </thead>
              <tbody>
                {rows.map((row, r) => (
                  <tr key={r} data-testid="batch-row">
                    <td className="batch-num">{r + 1}</td>
                    {crew.inputs.map((input, c) => (
                      <td key={input.name}>
                        <input
                          className="batch-cell"
                          aria-label={`Row ${r + 1}, ${input.name}`}
                          data-testid={`batch-cell-${r}-${input.name}`}
                          value={row[c] ?? ''}
                          placeholder={input.default}
                          onChange={(e) => setCell(r, c, e.target.value)}
                        />
                      </td>
                    ))}
                    <td className="batch-remove-col">
                      <button className="btn ghost" aria-label={`Remove row ${r + 1}`} data-testid="batch-remove-row" onClick={() => setRows(rows.filter((_, i) => i !== r))}>
                        ×
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <button className="btn ghost batch-add" data-testid="batch-add-row" onClick={() => setRows([...rows, crew.inputs.map(() => '')])}>
            + Add row
          </button>
        </div>
      )}
      <DialogError error={error} testId="batch-error" />
    </Modal>
  );
}
