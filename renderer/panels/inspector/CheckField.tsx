import { useProblemsAt } from './problemsContext';
import { controlId, FieldProblems } from './Field';

type Props = {
  label: string;
  path: string;
  value: unknown;
  /** What an absent value means (the schema's default). */
  defaultValue: boolean;
  onChange(value: boolean | undefined): void;
  hint?: string;
  testId?: string;
};

/**
 * A checkbox for a boolean with a default. Setting it back to the default removes the field, so the
 * file stays as small as the person wrote it.
 */
export function CheckField({ label, path, value, defaultValue, onChange, hint, testId }: Props) {
  const id = controlId(path);
  const checked = typeof value === 'boolean' ? value : defaultValue;
  const problems = useProblemsAt(path);
  return (
    <div className="insp-check" data-invalid={problems.length > 0 || undefined}>
      <input id={id} type="checkbox" checked={checked} data-testid={testId} onChange={(e) => onChange(e.target.checked === defaultValue ? undefined : e.target.checked)} />
      <label htmlFor={id}>
        {label}
        {hint && <span className="insp-check-hint">{hint}</span>}
      </label>
      <FieldProblems messages={problems} />
    </div>
  );
}
