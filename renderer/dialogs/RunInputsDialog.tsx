import { useEffect, useState, type FormEvent } from 'react';
import { host } from '../host/hostContext';
import { HostCallError } from '../host/hostError';
import { isFlowDocument } from '../model/documentKind';
import { useDocumentStore } from '../stores/documentStore';
import { useRunStore } from '../stores/runStore';
import { useUiStore } from '../stores/uiStore';
import { useBatchRunStore } from './batchRun/batchRunStore';
import { crewInputs, type CrewInput } from './crewInputs';
import { DialogError, type DialogErrorValue } from './DialogError';
import { Modal } from './Modal';
import { saveOpenDocument } from './saveOpenDocument';
import { RunTrust } from './RunTrust';
import { useTrustStore } from '../stores/trustStore';
import { useConnectModelStore } from '../panels/connect/connectModelStore';

/** `noun`: what the dialog calls the document (a flow's dialog says flow). */
type Loaded = { name: string; noun: 'crew' | 'flow'; inputs: CrewInput[]; profiles: string[]; defaultProfile?: string; teamServer?: string };

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
  const [loaded, setLoaded] = useState<Loaded>();
  const [values, setValues] = useState<Record<string, string>>({});
  const [model, setModel] = useState('');
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<DialogErrorValue>();
  // Until the saved file is read, the title speaks of the document on the canvas (a flow says flow).
  const openNoun = useDocumentStore((s) => (isFlowDocument(s.doc) ? 'flow' : 'crew'));

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
        const [read, settings] = await Promise.all([
          host().invoke('documents.read', { path }),
          host().invoke('settings.get', {}).catch(() => undefined),
        ]);
        if (!live) return;
        const doc = read.document as { name?: unknown } | null;
        const inputs = crewInputs(doc);
        setLoaded({
          name: typeof doc?.name === 'string' ? doc.name : path,
          noun: isFlowDocument(doc) ? 'flow' : 'crew',
          inputs,
          profiles: settings ? Object.keys(settings.settings.models.profiles) : [],
          defaultProfile: settings?.settings.models.default,
          teamServer: settings?.settings.team?.server,
        });
        setValues(Object.fromEntries(inputs.map((i) => [i.name, i.default ?? ''])));
        if (read.problems.length > 0) setError({ message: `The saved ${isFlowDocument(doc) ? 'flow' : 'crew'} has problems; the run will be refused until they are fixed.`, problems: read.problems });
      } catch (e) {
        if (live) setError({ message: e instanceof Error ? e.message : String(e) });
      }
    })();
    return () => {
      live = false;
    };
  }, [path]);

  // Trusted from this dialog (or the terminal): the refusal shown here no longer holds.
  const trusted = useTrustStore((s) => s.status?.trusted === true);
  useEffect(() => {
    if (trusted) setError((e) => (e && /not trusted/.test(e.message) ? undefined : e));
  }, [trusted]);

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
      footer={
        <>
          {loaded?.noun === 'crew' && (
            <button
              className="btn ghost"
              data-testid="run-for-each-row"
              title="Run this crew once per row of a table of inputs (pasted, or from a .csv / .jsonl file)"
              onClick={() => {
                onClose();
                useBatchRunStore.getState().setOpen(true);
              }}
            >
              Run for each row…
            </button>
          )}
          <span className="modal-foot-spacer" />
          <button className="btn" onClick={onClose}>
            Cancel
          </button>
          {loaded?.teamServer && (
            <button
              className="btn"
              data-testid="run-start-team"
              title={`Publish this ${loaded.noun} to ${loaded.teamServer} and run it there; its trace streams here`}
              disabled={starting || missing.length > 0}
              onClick={() => void submit(undefined, true)}
            >
              Run on team server
            </button>
          )}
          <button className="btn primary" data-testid="run-start" disabled={!loaded || starting || missing.length > 0} onClick={() => void submit()}>
            {starting ? 'Starting…' : '▶ Start run'}
          </button>
        </>
      }
    >
      {!loaded && !error && <div className="dialog-hint">Reading the document…</div>}
      {loaded && (
        <form className="dialog-form" onSubmit={(e) => void submit(e)}>
          {loaded.inputs.length === 0 && <div className="dialog-hint">This {loaded.noun} takes no inputs.</div>}
          {loaded.inputs.map((input, index) => {
            const id = `run-input-${input.name}`;
            const long = (input.default ?? '').length > 80 || (input.default ?? '').includes('\n');
            return (
              <div className="dialog-field" key={input.name}>
                <label htmlFor={id} className="dialog-field-label">
                  <code>{input.name}</code>
                  {input.default === undefined && <span className="dialog-required">required</span>}
                  {input.undeclared && <span className="dialog-note">used in the {loaded.noun}, not declared</span>}
                </label>
                {input.description && <div className="dialog-field-help">{input.description}</div>}
                {long ? (
                  <textarea id={id} data-testid={id} autoFocus={index === 0} className="dialog-textarea" rows={3} value={values[input.name] ?? ''} onChange={(e) => setValues({ ...values, [input.name]: e.target.value })} />
                ) : (
                  <input id={id} data-testid={id} autoFocus={index === 0} className="dialog-input" value={values[input.name] ?? ''} placeholder={input.default} onChange={(e) => setValues({ ...values, [input.name]: e.target.value })} />
                )}
              </div>
            );
          })}
          {loaded.profiles.length > 0 && (
            <div className="dialog-field">
              <label htmlFor="run-model" className="dialog-field-label">
                Model
              </label>
              <select id="run-model" data-testid="run-model" className="dialog-input" value={model} onChange={(e) => setModel(e.target.value)}>
                <option value="">As configured in the {loaded.noun}{loaded.defaultProfile ? ` (default: ${loaded.defaultProfile})` : ''}</option>
                {loaded.profiles.map((p) => (
                  <option key={p} value={p}>
                    {loaded.noun === 'flow' ? `Every model call and agent uses “${p}”` : `Every agent uses “${p}”`}
                  </option>
                ))}
              </select>
            </div>
          )}
          {loaded.profiles.length === 0 && (
            <div className="dialog-hint" data-testid="run-model-hint">
              Runs use the models the {loaded.noun} names. To pick another model here,{' '}
              <button
                type="button"
                className="btn-link"
                data-testid="run-connect-model"
                onClick={() => {
                  onClose();
                  useConnectModelStore.getState().setOpen(true);
                }}
              >
                connect a model
              </button>
              .
            </div>
          )}
          <button type="submit" hidden />
        </form>
      )}
      <RunTrust />
      <DialogError error={error} testId="run-dialog-error" />
    </Modal>
  );
}
