import { controlId, Field } from './Field';

export type Option = { value: string; label: string };

type Props = {
  label: string;
  path: string;
  value: string;
  options: readonly Option[];
  onChange(value: string): void;
  hint?: string;
  exactProblems?: boolean;
  testId?: string;
};

export function SelectField({ label, path, value, options, onChange, hint, exactProblems, testId }: Props) {
  const id = controlId(path);
  const known = options.some((o) => o.value === value);
  return (
    <Field label={label} htmlFor={id} path={path} hint={hint} exactProblems={exactProblems}>
      <select id={id} className="insp-input" value={value} data-testid={testId} onChange={(e) => onChange(e.target.value)}>
        {!known && <option value={value}>{value || '—'} (unknown)</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
