import { controlId, Field } from './Field';

type Props = {
  label: string;
  path: string;
  value: unknown;
  onChange(value: number | undefined): void;
  placeholder?: string;
  hint?: string;
  step?: number;
  min?: number;
  testId?: string;
};

/** A number input; emptying it removes the field (its default applies). */
export function NumberField({ label, path, value, onChange, placeholder, hint, step = 1, min, testId }: Props) {
  const id = controlId(path);
  return (
    <Field label={label} htmlFor={id} path={path} hint={hint}>
      <input
        id={id}
        className="insp-input is-number"
        type="number"
        step={step}
        min={min}
        value={typeof value === 'number' ? value : ''}
        placeholder={placeholder}
        data-testid={testId}
        onChange={(e) => {
          const raw = e.target.value;
          const n = Number(raw);
          onChange(raw === '' || !Number.isFinite(n) ? undefined : n);
        }}
      />
    </Field>
  );
}
