import { isRecord } from '../../commands/crewDraft';
import { FieldProblems } from './Field';
import { useProblemsAt } from './problemsContext';
import { TextField } from './TextField';

type Input = Record<string, unknown>;

/** Kickoff inputs: `{name}` placeholders in roles, goals, descriptions… with optional defaults. */
export function InputsEditor({ path, value, onChange }: { path: string; value: unknown; onChange(value: Input[] | undefined): void }) {
  const list = Array.isArray(value) ? (value as unknown[]).map((x) => (isRecord(x) ? x : {})) : [];
  const own = useProblemsAt(path, true);
  const patch = (index: number, p: Record<string, unknown>) =>
    onChange(
      list.map((item, i) => {
        if (i !== index) return item;
        const next: Input = { ...item };
        for (const [k, v] of Object.entries(p)) {
          if (v === undefined) delete next[k];
          else next[k] = v;
        }
        return next;
      }),
    );
  const add = () => {
    const names = new Set(list.map((i) => i.name));
    let n = list.length + 1;
    while (names.has(`input${n}`)) n += 1;
    onChange([...list, { name: `input${n}` }]);
  };
  return (
    <div className="insp-list" data-testid="inputs-editor">
      <FieldProblems messages={own} />
      {list.length === 0 && <div className="insp-empty">No inputs. Add one, then use it as {'{name}'} in any text.</div>}
      {list.map((input, i) => (
        <div key={i} className="insp-card">
          <div className="insp-card-head">
            <code className="insp-card-title">{`{${typeof input.name === 'string' ? input.name : '?'}}`}</code>
            <button
              type="button"
              className="insp-icon-btn is-danger"
              aria-label={`Remove input ${String(input.name ?? i + 1)}`}
              onClick={() => {
                const next = list.filter((_, j) => j !== i);
                onChange(next.length > 0 ? next : undefined);
              }}
            >
              ×
            </button>
          </div>
          <div className="insp-row">
            <TextField label="Name" path={`${path}.${i}.name`} value={input.name} mono onChange={(v) => patch(i, { name: v ?? '' })} />
            <TextField label="Default" path={`${path}.${i}.default`} value={input.default} optional onChange={(v) => patch(i, { default: v })} />
          </div>
          <TextField label="Description" path={`${path}.${i}.description`} value={input.description} optional onChange={(v) => patch(i, { description: v })} />
        </div>
      ))}
      <button type="button" className="btn insp-add" onClick={add} data-testid="add-input">
        + Add input
      </button>
    </div>
  );
}
