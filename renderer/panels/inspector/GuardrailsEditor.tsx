import { isRecord } from '../../commands/crewDraft';
import { controlId, FieldProblems } from './Field';
import { JsonField } from './JsonField';
import { ModelRefEditor } from './ModelRefEditor';
import { NumberField } from './NumberField';
import { useProblemsAt } from './problemsContext';
import { TextField } from './TextField';

type Guardrail = Record<string, unknown>;

const KINDS = [
  { type: 'contains', label: 'Contains text', make: () => ({ type: 'contains', text: '' }) },
  { type: 'not_contains', label: 'Does not contain text', make: () => ({ type: 'not_contains', text: '' }) },
  { type: 'regex', label: 'Matches a regular expression', make: () => ({ type: 'regex', pattern: '' }) },
  { type: 'length', label: 'Length limits', make: () => ({ type: 'length', max: 2000 }) },
  { type: 'json_schema', label: 'Valid against a JSON Schema', make: () => ({ type: 'json_schema', schema: { type: 'object' } }) },
  { type: 'llm', label: 'Judged by a model', make: () => ({ type: 'llm', criterion: '' }) },
] as const;

const labelOf = (type: unknown) => KINDS.find((k) => k.type === type)?.label ?? `Unknown (${String(type)})`;

/** The task's guardrails, checked in order after each attempt; add, edit, reorder, remove. */
export function GuardrailsEditor({ path, value, onChange, profiles }: { path: string; value: unknown; onChange(value: Guardrail[]): void; profiles: readonly string[] }) {
  const list = Array.isArray(value) ? (value as unknown[]).map((g) => (isRecord(g) ? g : {})) : [];
  const ownProblems = useProblemsAt(path, true);
  const replace = (index: number, next: Guardrail) => onChange(list.map((g, i) => (i === index ? next : g)));
  const patch = (index: number, p: Record<string, unknown>) => {
    const next: Guardrail = { ...list[index] };
    for (const [k, v] of Object.entries(p)) {
      if (v === undefined) delete next[k];
      else next[k] = v;
    }
    replace(index, next);
  };
  const move = (index: number, delta: number) => {
    const next = list.slice();
    const [item] = next.splice(index, 1);
    // Each row's buttons move that row: there is always an entry at its index.
    if (item === undefined) return;
    next.splice(index + delta, 0, item);
    onChange(next);
  };
  const addId = `${controlId(path)}-add`;

  return (
    <div className="insp-list" data-testid="guardrails-editor">
      <FieldProblems messages={ownProblems} />
      {list.length === 0 && <div className="insp-empty">No guardrails: any output is accepted.</div>}
      {list.map((g, i) => (
        <div key={i} className="insp-card" data-testid="guardrail">
          <div className="insp-card-head">
            <span className="insp-card-index">{i + 1}</span>
            <span className="insp-card-title">{labelOf(g.type)}</span>
            <button type="button" className="insp-icon-btn" aria-label="Move guardrail up" disabled={i === 0} onClick={() => move(i, -1)}>
              ▲
            </button>
            <button type="button" className="insp-icon-btn" aria-label="Move guardrail down" disabled={i === list.length - 1} onClick={() => move(i, 1)}>
              ▼
            </button>
            <button type="button" className="insp-icon-btn is-danger" aria-label="Remove guardrail" onClick={() => onChange(list.filter((_, j) => j !== i))}>
              ×
            </button>
          </div>
          <GuardrailFields path={`${path}.${i}`} value={g} onPatch={(p) => patch(i, p)} onReplace={(next) => replace(i, next)} profiles={profiles} />
        </div>
      ))}
      <div className="insp-inline-add">
        <label className="sr-only" htmlFor={addId}>
          Add guardrail
        </label>
        <select
          id={addId}
          className="insp-input"
          value=""
          data-testid="add-guardrail"
          onChange={(e) => {
            const kind = KINDS.find((k) => k.type === e.target.value);
            if (kind) onChange([...list, kind.make()]);
          }}
        >
          <option value="">+ Add guardrail…</option>
          {KINDS.map((k) => (
            <option key={k.type} value={k.type}>
              {k.label}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

function GuardrailFields({
  path,
  value,
  onPatch,
  onReplace,
  profiles,
}: {
  path: string;
  value: Guardrail;
  onPatch(p: Record<string, unknown>): void;
  onReplace(g: Guardrail): void;
  profiles: readonly string[];
}) {
  switch (value.type) {
    case 'contains':
    case 'not_contains':
      return <TextField label="Text" path={`${path}.text`} value={value.text} onChange={(v) => onPatch({ text: v ?? '' })} testId="guardrail-text" />;
    case 'regex':
      return (
        <div className="insp-row is-wide-first">
          <TextField label="Pattern" path={`${path}.pattern`} value={value.pattern} mono onChange={(v) => onPatch({ pattern: v ?? '' })} testId="guardrail-pattern" />
          <TextField label="Flags" path={`${path}.flags`} value={value.flags} mono optional placeholder="i" onChange={(v) => onPatch({ flags: v })} />
        </div>
      );
    case 'length':
      return (
        <div className="insp-row">
          <NumberField label="Min characters" path={`${path}.min`} value={value.min} min={0} onChange={(v) => onPatch({ min: v })} />
          <NumberField label="Max characters" path={`${path}.max`} value={value.max} min={0} onChange={(v) => onPatch({ max: v })} />
        </div>
      );
    case 'json_schema':
      return <JsonField label="JSON Schema" path={`${path}.schema`} value={value.schema} expect="object" onChange={(v) => onPatch({ schema: v ?? {} })} />;
    case 'llm':
      return (
        <>
          <TextField label="Criterion" path={`${path}.criterion`} value={value.criterion} multiline rows={2} placeholder="The answer cites at least two sources." onChange={(v) => onPatch({ criterion: v ?? '' })} />
          <ModelRefEditor label="Judge model" path={`${path}.llm`} value={value.llm} profiles={profiles} onChange={(v) => onPatch({ llm: v })} />
        </>
      );
    default:
      return (
        <div className="insp-empty">
          Unknown guardrail type.{' '}
          <button type="button" className="insp-link" onClick={() => onReplace({ type: 'contains', text: '' })}>
            Replace with “contains”
          </button>
        </div>
      );
  }
}
