import { controlId, Field } from './Field';

type Props = {
  label: string;
  path: string;
  value: unknown;
  /** `undefined` when an optional field is emptied. */
  onChange(value: string | undefined): void;
  /** Empty text removes the field (so its default applies) instead of saving "". */
  optional?: boolean;
  multiline?: boolean;
  rows?: number;
  mono?: boolean;
  placeholder?: string;
  hint?: string;
  testId?: string;
};

/** A text input or text area bound to a document string. */
export function TextField({ label, path, value, onChange, optional, multiline, rows = 3, mono, placeholder, hint, testId }: Props) {
  const id = controlId(path);
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
  const change = (next: string) => onChange(optional && next === '' ? undefined : next);
  const className = `insp-input${mono ? ' is-mono' : ''}`;
  return (
    <Field label={label} htmlFor={id} path={path} hint={hint}>
      {multiline ? (
        <textarea id={id} className={className} rows={rows} value={text} placeholder={placeholder} data-testid={testId} onChange={(e) => change(e.target.value)} />
      ) : (
        <input id={id} className={className} value={text} placeholder={placeholder} data-testid={testId} onChange={(e) => change(e.target.value)} spellCheck={false} />
      )}
    </Field>
  );
}
