import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { crewInputs, type CrewInput } from '../../dialogs/crewInputs';
import { DialogError, type DialogErrorValue } from '../../dialogs/DialogError';
import { Modal } from '../../dialogs/Modal';
import { host } from '../../host/hostContext';
import { HostCallError } from '../../host/hostError';
import { saveOpenDocument } from '../../dialogs/saveOpenDocument';

export interface SessionRequest {
  iterations: number;
  evalModel?: string;
  inputs: Record<string, string>;
}

interface SessionStartDialogProps {
  /** `train` or `test`: names the test ids (`train-…`, `test-…`). */
  idPrefix: 'train' | 'test';
  path: string;
  title(crewName: string): string;
  intro: ReactNode;
  startLabel: string;
  defaultIterations: number;
  onStart(request: SessionRequest): Promise<void>;
  onClose(): void;
}

type Loaded = { name: string; inputs: CrewInput[]; profiles: string[] };

/**
 * Starts a training session or a crew test of the crew at `path`: how many iterations, which model
 * profile evaluates (the agents' own models by default), and the crew's inputs. Pending edits of the
 * open crew are saved first (the session runs the file on disk).
 */
export function SessionStartDialog({ idPrefix, path, title, intro, startLabel, defaultIterations, onStart, onClose }: SessionStartDialogProps) {
  const [loaded, setLoaded] = useState<Loaded>();
  const [iterations, setIterations] = useState(String(defaultIterations));
  const [evalModel, setEvalModel] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<DialogErrorValue>();

  useEffect(() => {
    let live = true;
    // Every failure is caught inside and shown in the dialog.
    void (async () => {
      try {
        const [read, settings] = await Promise.all([host().invoke('documents.read', { path }), host().invoke('settings.get', {}).catch(() => undefined)]);
        if (!live) return;
        const doc = read.document as { name?: unknown } | null;
        const inputs = crewInputs(doc);
        setLoaded({ name: typeof doc?.name === 'string' ? doc.name : path, inputs, profiles: settings ? Object.keys(settings.settings.models.profiles) : [] });
        setValues(Object.fromEntries(inputs.map((i) => [i.name, i.default ?? ''])));
      } catch (e) {
        if (live) setError({ message: e instanceof Error ? e.message : String(e) });
      }
    })();
    return () => {
      live = false;
    };
  }, [path]);

  const count = Number(iterations);
  const badCount = !Number.isInteger(count) || count < 1 || count > 50;
  const missing = loaded?.inputs.filter((i) => (values[i.name] ?? '').trim() === '' && i.default === undefined) ?? [];
  const ready = loaded !== undefined && !starting && !badCount && missing.length === 0;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!ready) return;
    setStarting(true);
    setError(undefined);
    try {
      const unsaved = await saveOpenDocument(path);
      if (unsaved) throw new Error(unsaved);
      await onStart({ iterations: count, evalModel: evalModel || undefined, inputs: values });
      onClose();
    } catch (caught) {
      setStarting(false);
      setError({ message: caught instanceof Error ? caught.message : String(caught), problems: caught instanceof HostCallError ? caught.problems : undefined });
    }
  };

  return (
    <Modal
      testId={`${idPrefix}-dialog`}
      title={title(loaded?.name ?? path)}
      subtitle={<code className="dialog-code">{path}</code>}
      onClose={onClose}
      footer={
        <>
          <span className="modal-foot-spacer" />
          <button className="btn" onClick={onClose}>
            Cancel
          </button>
          <button className="btn primary" data-testid={`${idPrefix}-start`} disabled={!ready} onClick={() => void submit()}>
            {starting ? 'Starting…' : startLabel}
          </button>
        </>
      }
    >
      <div className="dialog-hint">{intro}</div>
      {!loaded && !error && <div className="dialog-hint">Reading the crew…</div>}
      {loaded && (
        <form className="dialog-form" onSubmit={(e) => void submit(e)}>
          <div className="dialog-field">
            <label htmlFor={`${idPrefix}-iterations`} className="dialog-field-label">
              Iterations
            </label>
            <input
              id={`${idPrefix}-iterations`}
              data-testid={`${idPrefix}-iterations`}
              className="dialog-input training-iterations"
              type="number"
              min={1}
              max={50}
              value={iterations}
              aria-invalid={badCount}
              onChange={(e) => setIterations(e.target.value)}
            />
            {badCount && <div className="dialog-field-help dialog-field-error">A whole number from 1 to 50.</div>}
          </div>
          <div className="dialog-field">
            <label htmlFor={`${idPrefix}-eval-model`} className="dialog-field-label">
              Evaluator model
            </label>
            <select id={`${idPrefix}-eval-model`} data-testid={`${idPrefix}-eval-model`} className="dialog-input" value={evalModel} onChange={(e) => setEvalModel(e.target.value)}>
              <option value="">Each agent’s own model</option>
              {loaded.profiles.map((p) => (
                <option key={p} value={p}>
                  Profile “{p}”
                </option>
              ))}
            </select>
          </div>
          {loaded.inputs.map((input) => {
            const id = `${idPrefix}-input-${input.name}`;
            return (
              <div className="dialog-field" key={input.name}>
                <label htmlFor={id} className="dialog-field-label">
                  <code>{input.name}</code>
                  {input.default === undefined && <span className="dialog-required">required</span>}
                </label>
                {input.description && <div className="dialog-field-help">{input.description}</div>}
                <input id={id} data-testid={id} className="dialog-input" value={values[input.name] ?? ''} placeholder={input.default} onChange={(e) => setValues({ ...values, [input.name]: e.target.value })} />
              </div>
            );
          })}
          <button type="submit" hidden />
        </form>
      )}
      <DialogError error={error} testId={`${idPrefix}-dialog-error`} />
    </Modal>
  );
}
