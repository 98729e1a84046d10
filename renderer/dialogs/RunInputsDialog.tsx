import { useState, type FormEvent } from 'react';
import { HostCallError } from '../host/hostError';
import { isFlowDocument } from '../model/documentKind';
import { useDocumentStore } from '../stores/documentStore';
import { useRunStore } from '../stores/runStore';
import { useUiStore } from '../stores/uiStore';
import { DialogError } from './DialogError';
import { Modal } from './Modal';
import { saveOpenDocument } from './saveOpenDocument';
import { RunTrust } from './RunTrust';
import { RunDialogFooter } from './runInputs/RunDialogFooter';
import { RunInputFields } from './runInputs/RunInputFields';
import { RunModelChoice } from './runInputs/RunModelChoice';
import { useRunDocument } from './runInputs/useRunDocument';

/**
 * "Run with inputs": opened by `uiStore.runDialogOpen` for the document on the canvas. Reads the saved
 * document (the run uses the file on disk, so pending edits of the open document are saved first),
 * asks for its inputs with their defaults, optionally a model profile to run every agent with, then
 * starts the run and shows it.
 */
export function RunInputsDialog() {
  const open = useUiStore((s) => s.runDialogOpen);
  const path = useDocumentStore((s) => s.path);
  if (!open || !path) return null;
  return <RunInputsForm key={path} path={path} onClose={() => useUiStore.getState().setRunDialogOpen(false)} />;
}

function RunInputsForm({ path, onClose }: { path: string; onClose(): void }) {
  const { loaded, values, setValues, error, setError } = useRunDocument(path);
  const [model, setModel] = useState('');
  const [starting, setStarting] = useState(false);
  // Until the saved file is read, the title speaks of the document on the canvas (a flow says flow).
  const openNoun = useDocumentStore((s) => (isFlowDocument(s.doc) ? 'flow' : 'crew'));

  const missing = loaded?.inputs.filter((i) => (values[i.name] ?? '').trim() === '' && i.default === undefined) ?? [];

  const submit = async (e?: FormEvent, onTeam = false) => {
    e?.preventDefault();
    if (!loaded || starting || missing.length > 0) return;
    setStarting(true);
    setError(undefined);
    try {
      const unsaved = await saveOpenDocument(path);
      if (unsaved) {
        setStarting(false);
        setError({ message: unsaved });
        return;
      }
      if (onTeam) await useRunStore.getState().startTeam(path, values);
      else await useRunStore.getState().start(path, values, model || undefined);
      useUiStore.getState().setBottomTab('trace');
      onClose();
    } catch (caught) {
      setStarting(false);
      setError({ message: caught instanceof Error ? caught.message : String(caught), problems: caught instanceof HostCallError ? caught.problems : undefined });
    }
  };

  return (
    <Modal
      testId="run-dialog"
      title={loaded ? `Run ${loaded.name}` : `Run ${openNoun}`}
      subtitle={<code className="dialog-code">{path}</code>}
      onClose={onClose}
      footer={<RunDialogFooter loaded={loaded} canStart={!starting && missing.length === 0} starting={starting} onStart={(onTeam) => void submit(undefined, onTeam)} onClose={onClose} />}
    >
      {!loaded && !error && <div className="dialog-hint">Reading the document…</div>}
      {loaded && (
        <form className="dialog-form" onSubmit={(e) => void submit(e)}>
          <RunInputFields loaded={loaded} values={values} onValues={setValues} />
          <RunModelChoice loaded={loaded} model={model} onModel={setModel} onClose={onClose} />
          <button type="submit" hidden />
        </form>
      )}
      <RunTrust />
      <DialogError error={error} testId="run-dialog-error" />
    </Modal>
  );
}
