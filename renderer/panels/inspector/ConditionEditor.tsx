import { isRecord } from '../../commands/crewDraft';
import { SelectField } from './SelectField';
import { TextField } from './TextField';

type Props = { path: string; value: unknown; onChange(value: unknown): void; isFirst: boolean };

const TYPES = [
  { value: '', label: 'Always run' },
  { value: 'contains', label: 'Previous output contains…' },
  { value: 'not_contains', label: 'Previous output does not contain…' },
  { value: 'regex', label: 'Previous output matches a regex' },
  { value: 'json_field', label: 'A JSON field of the previous output…' },
  { value: 'script', label: 'A script decides' },
];

const OPS = [
  { value: 'eq', label: '= equals' },
  { value: 'neq', label: '≠ differs from' },
  { value: 'gt', label: '> greater than' },
  { value: 'gte', label: '≥ at least' },
  { value: 'lt', label: '< less than' },
  { value: 'lte', label: '≤ at most' },
  { value: 'exists', label: 'exists' },
  { value: 'not_exists', label: 'does not exist' },
];

const DEFAULTS: Record<string, Record<string, unknown>> = {
  contains: { type: 'contains', text: '' },
  not_contains: { type: 'not_contains', text: '' },
  regex: { type: 'regex', pattern: '' },
  json_field: { type: 'json_field', path: '', op: 'eq', value: '' },
  script: { type: 'script', code: 'return output.length > 0;' },
};

/** The skip rule: the task runs only when this holds for the previous task's output. */
export function ConditionEditor({ path, value, onChange, isFirst }: Props) {
  const condition = isRecord(value) ? value : undefined;
  const type = condition ? String(condition.type ?? '') : '';
  const patch = (p: Record<string, unknown>) => {
    const next: Record<string, unknown> = { ...condition };
    for (const [k, v] of Object.entries(p)) {
      if (v === undefined) delete next[k];
      else next[k] = v;
    }
    onChange(next);
  };
  return (
    <div className="insp-group">
      <SelectField
        label="Run when"
        path={path}
        exactProblems
        value={type}
        options={TYPES}
        hint={isFirst ? 'The first task has no previous output to test.' : undefined}
        onChange={(v) => onChange(v === '' ? undefined : DEFAULTS[v])}
        testId="condition-type"
      />
      {(type === 'contains' || type === 'not_contains') && <TextField label="Text" path={`${path}.text`} value={condition?.text} onChange={(v) => patch({ text: v ?? '' })} />}
      {type === 'regex' && (
        <div className="insp-row is-wide-first">
          <TextField label="Pattern" path={`${path}.pattern`} value={condition?.pattern} mono onChange={(v) => patch({ pattern: v ?? '' })} />
          <TextField label="Flags" path={`${path}.flags`} value={condition?.flags} mono optional onChange={(v) => patch({ flags: v })} />
        </div>
      )}
      {type === 'json_field' && (
        <>
          <TextField label="Field path" path={`${path}.path`} value={condition?.path} mono placeholder="verdict or items.0.score" onChange={(v) => patch({ path: v ?? '' })} />
          <div className="insp-row">
            <SelectField label="Test" path={`${path}.op`} value={String(condition?.op ?? 'eq')} options={OPS} onChange={(v) => patch({ op: v })} />
            {condition?.op !== 'exists' && condition?.op !== 'not_exists' && (
              <TextField
                label="Value (JSON or text)"
                path={`${path}.value`}
                value={condition?.value === undefined ? '' : typeof condition.value === 'string' ? condition.value : JSON.stringify(condition.value)}
                mono
                onChange={(v) => patch({ value: parseLiteral(v ?? '') })}
              />
            )}
          </div>
        </>
      )}
      {type === 'script' && (
        <TextField
          label="Script (QuickJS; `output` and `json` are given; return true to run)"
          path={`${path}.code`}
          value={condition?.code}
          multiline
          rows={4}
          mono
          onChange={(v) => patch({ code: v ?? '' })}
        />
      )}
    </div>
  );
}

/** Numbers, booleans and null as JSON; anything else as the text typed. */
function parseLiteral(text: string): unknown {
  if (/^(-?\d+(\.\d+)?|true|false|null)$/.test(text.trim())) return JSON.parse(text.trim());
  return text;
}
