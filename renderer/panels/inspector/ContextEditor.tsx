import { controlId, FieldProblems } from './Field';
import { useProblemsAt } from './problemsContext';

type TaskChoice = { id: string; label: string };
type Props = {
  path: string;
  value: unknown;
  /** Tasks before this one, in order. */
  earlier: readonly TaskChoice[];
  onChange(value: string[] | 'none' | undefined): void;
};

/** Which earlier outputs the task gets: all of them (default), none, or a chosen list. */
export function ContextEditor({ path, value, earlier, onChange }: Props) {
  const mode = value === 'none' ? 'none' : Array.isArray(value) ? 'list' : 'all';
  const picked = Array.isArray(value) ? (value as unknown[]).filter((v): v is string => typeof v === 'string') : [];
  const stray = picked.filter((id) => !earlier.some((t) => t.id === id));
  const problems = useProblemsAt(path);
  const base = controlId(path);
  const radio = (m: 'all' | 'none' | 'list', label: string) => (
    <div className="insp-radio">
      <input
        id={`${base}-${m}`}
        type="radio"
        name={base}
        checked={mode === m}
        data-testid={`context-${m}`}
        onChange={() => onChange(m === 'all' ? undefined : m === 'none' ? 'none' : picked.length > 0 ? picked : earlier.slice(-1).map((t) => t.id))}
      />
      <label htmlFor={`${base}-${m}`}>{label}</label>
    </div>
  );
  const toggle = (id: string, on: boolean) => {
    const next = on ? earlier.map((t) => t.id).filter((t) => t === id || picked.includes(t)) : picked.filter((p) => p !== id);
    onChange(next.length > 0 ? next : 'none');
  };

  return (
    <fieldset className="insp-fieldset" data-invalid={problems.length > 0 || undefined}>
      <legend className="insp-label">Context</legend>
      {radio('all', 'Outputs of all earlier tasks (default)')}
      {radio('none', 'No context')}
      {radio('list', 'Only these tasks')}
      {mode === 'list' && (
        <div className="insp-picklist">
          {earlier.length === 0 && <div className="insp-empty">No earlier tasks.</div>}
          {earlier.map((t) => (
            <div key={t.id} className="insp-check">
              <input id={`${base}-t-${t.id}`} type="checkbox" checked={picked.includes(t.id)} onChange={(e) => toggle(t.id, e.target.checked)} />
              <label htmlFor={`${base}-t-${t.id}`}>{t.label}</label>
            </div>
          ))}
          {stray.map((id) => (
            <div key={`stray-${id}`} className="insp-check is-stray">
              <input id={`${base}-s-${id}`} type="checkbox" checked onChange={() => toggle(id, false)} />
              <label htmlFor={`${base}-s-${id}`}>
                {id} <span className="insp-check-hint">not an earlier task — uncheck to remove</span>
              </label>
            </div>
          ))}
        </div>
      )}
      <FieldProblems messages={problems} />
    </fieldset>
  );
}
