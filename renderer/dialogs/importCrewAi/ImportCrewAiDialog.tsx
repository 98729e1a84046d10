import { useState, type FormEvent } from 'react';
import type { HostResponse } from '../../../shared/host-api';
import { host } from '../../host/hostContext';
import { useDocumentStore } from '../../stores/documentStore';
import { Modal } from '../Modal';
import { useImportCrewAiStore } from './importCrewAiStore';
import '../../styles/import-crewai.css';

type Imported = HostResponse<'documents.importCrewai'>;

/**
 * File → Import CrewAI Project…: asks for the project folder, imports it into the workspace as a new
 * crew, then lists what could not be imported (custom Python tools, callbacks…) with the reasons.
 */
export function ImportCrewAiDialog() {
  const open = useImportCrewAiStore((s) => s.open);
  if (!open) return null;
  return <ImportCrewAiForm onClose={() => useImportCrewAiStore.getState().setOpen(false)} />;
}

function ImportCrewAiForm({ onClose }: { onClose(): void }) {
  const [dir, setDir] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [imported, setImported] = useState<Imported>();

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (busy || dir.trim() === '') return;
    setBusy(true);
    setError(undefined);
    try {
      const result = await host().invoke('documents.importCrewai', { dir: dir.trim() });
      setImported(result);
      void useDocumentStore.getState().open(result.path);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };

  if (imported) {
    return (
      <Modal
        testId="import-crewai-dialog"
        title="CrewAI project imported"
        subtitle={<code className="dialog-code">{imported.documents.map((d) => d.path).join(', ')}</code>}
        onClose={onClose}
        width={680}
        footer={
          <>
            <span className="modal-foot-spacer" />
            <button className="btn primary" data-testid="import-crewai-done" onClick={onClose}>
              Done
            </button>
          </>
        }
      >
        <div className="dialog-hint">Read {imported.sourceFiles.join(', ')}. {imported.documents[0]?.kind === 'flow' ? 'The flow is open on the canvas; its crews are beside it.' : 'The new crew is open on the canvas.'}</div>
        {imported.unmapped.length === 0 ? (
          <div className="import-crewai-ok" data-testid="import-crewai-unmapped-none">
            Everything was imported.
          </div>
        ) : (
          <section aria-label="Not imported" data-testid="import-crewai-unmapped">
            <h3 className="import-crewai-heading">Not imported ({imported.unmapped.length})</h3>
            <ul className="import-crewai-list">
              {imported.unmapped.map((u, i) => (
                <li key={i} className="import-crewai-item" data-testid="import-crewai-unmapped-item">
                  <div>
                    <code className="import-crewai-item-what">{u.item}</code> <span className="import-crewai-where">{u.path}</span>
                  </div>
                  <div className="import-crewai-why">{u.why}</div>
                </li>
              ))}
            </ul>
          </section>
        )}
      </Modal>
    );
  }

  return (
    <Modal
      testId="import-crewai-dialog"
      title="Import CrewAI project"
      subtitle="Reads config/agents.yaml, config/tasks.yaml and crew.py; the Python code is never run."
      onClose={onClose}
      footer={
        <>
          <span className="modal-foot-spacer" />
          <button className="btn" onClick={onClose}>
            Cancel
          </button>
          <button className="btn primary" data-testid="import-crewai-submit" disabled={busy || dir.trim() === ''} onClick={() => void submit()}>
            {busy ? 'Importing…' : 'Import'}
          </button>
        </>
      }
    >
      <form className="dialog-form" onSubmit={(e) => void submit(e)}>
        <div className="dialog-field">
          <label htmlFor="import-crewai-dir" className="dialog-field-label">
            Project folder
          </label>
          <div className="dialog-field-help">
            A folder inside this workspace (copy the project there first), as a path relative to the workspace. To import from
            anywhere else, use <code>crewdeck import &lt;dir&gt;</code>.
          </div>
          <input
            id="import-crewai-dir"
            className="dialog-input"
            data-testid="import-crewai-dir"
            placeholder="projects/my_crew"
            value={dir}
            onChange={(e) => setDir(e.target.value)}
          />
        </div>
      </form>
      {error && (
        <div className="dialog-error" role="alert" data-testid="import-crewai-error">
          {error}
        </div>
      )}
    </Modal>
  );
}
