import { isRecord } from '../../../commands/crewDraft';
import { FieldProblems } from '../Field';
import { useProblemsAt } from '../problemsContext';

type Props = {
  path: string;
  value: unknown;
  onChange(value: Record<string, string>, editKey?: string): void;
  keyLabel: string;
  valuePlaceholder?: string;
  addLabel: string;
  empty: string;
  testId: string;
};

/** Rows of name → template (crew inputs, state fields to set); renaming a name keeps the row in place. */
export function TemplateMapEditor({ path, value, onChange, keyLabel, valuePlaceholder, addLabel, empty, testId }: Props) {
  const map = isRecord(value) ? value : {};
  const entries = Object.entries(map).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as const);
  const problems = useProblemsAt(path);
  const rebuild = (rows: (readonly [string, string])[]) => Object.fromEntries(rows);
  const add = () => {
    let n = entries.length + 1;
    while (`field${n}` in map) n += 1;
    onChange(rebuild([...entries, [`field${n}`, '']]));
  };
  return (
    <div className="insp-list" data-testid={testId}>
      <FieldProblems messages={problems} />
      {entries.length === 0 && <div className="insp-empty">{empty}</div>}
      {entries.map(([key, template], i) => (
        <div key={i} className="flow-row-grid">
          <input
            className="insp-input is-mono"
            aria-label={`${keyLabel} ${i + 1}`}
            value={key}
            spellCheck={false}
            data-testid={`${testId}-key-${i}`}
            onChange={(e) => {
              const next = e.target.value;
              if (next !== key && next in map) return;
              onChange(rebuild(entries.map((row, j) => (j === i ? [next, row[1]] : row))), `${i}.key`);
            }}
          />
          <input
            className="insp-input is-mono"
            aria-label={`Template for ${key}`}
            value={template}
            placeholder={valuePlaceholder}
            spellCheck={false}
            data-testid={`${testId}-value-${i}`}
            onChange={(e) => onChange(rebuild(entries.map((row, j) => (j === i ? [row[0], e.target.value] : row))), `${i}.value`)}
          />
          <button type="button" className="insp-icon-btn is-danger" aria-label={`Remove ${key}`} onClick={() => onChange(rebuild(entries.filter((_, j) => j !== i)))}>
            ×
          </button>
        </div>
      ))}
      <button type="button" className="btn insp-add" onClick={add} data-testid={`${testId}-add`}>
        {addLabel}
      </button>
    </div>
  );
}
