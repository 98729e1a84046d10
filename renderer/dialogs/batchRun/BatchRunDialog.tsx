import { useDocumentStore } from '../../stores/documentStore';
import { DialogError } from '../DialogError';
import { Modal } from '../Modal';
import { formFooter, resultsFooter } from './batchDialogFooters';
import { BatchResults } from './BatchResults';
import { BatchRowsEditor } from './BatchRowsEditor';
import { useBatchRunStore } from './batchRunStore';
import { useBatchRunForm } from './useBatchRunForm';
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

function BatchRunForm({ path, onClose }: { path: string; onClose(): void }) {
  const batch = useBatchRunStore((s) => (s.batch?.path === path ? s.batch : undefined));
  const { crew, rows, setRows, concurrency, setConcurrency, starting, error, addText, run } = useBatchRunForm(path);

  return (
    <Modal
      testId="batch-dialog"
      title={`Run ${crew?.name ?? 'crew'} for each row`}
      subtitle={<code className="dialog-code">{path}</code>}
      onClose={onClose}
      width={920}
      footer={
        batch
          ? resultsFooter(batch, onClose)
          : formFooter({ concurrency, onConcurrency: setConcurrency, rowCount: rows.length, canRun: crew !== undefined && !starting && rows.length > 0, starting, onRun: () => void run(), onClose })
      }
    >
      {batch ? (
        <BatchResults batch={batch} onOpenRun={onClose} />
      ) : (
        <>
          {!crew && !error && <div className="dialog-hint">Reading the crew…</div>}
          {crew && <BatchRowsEditor inputs={crew.inputs} rows={rows} setRows={setRows} onText={addText} />}
          <DialogError error={error} testId="batch-error" />
        </>
      )}
    </Modal>
  );
}
