import { useEffect, useRef, useState } from 'react';
import { controlId, Field } from './Field';

type Props = {
  label: string;
  path: string;
  value: unknown;
  onChange(value: unknown): void;
  /** The JSON value must be an object / an array. */
  expect: 'object' | 'array';
  rows?: number;
  hint?: string;
  placeholder?: string;
  testId?: string;
};

/**
 * JSON edited as text (a JSON Schema, tool config, knowledge sources). The document changes only while
 * the text parses to the expected kind of value; otherwise the parse error shows and nothing is lost
 * from the box. Emptying it removes the field.
 */
export function JsonField({ label, path, value, onChange, expect, rows = 6, hint, placeholder, testId }: Props) {
  const id = controlId(path);
  const serialized = value === undefined ? '' : JSON.stringify(value, null, 2);
  const [text, setText] = useState(serialized);
  const [error, setError] = useState<string>();
  const lastSeen = useRef(serialized);

  useEffect(() => {
    // Changed from elsewhere (undo, another field): show the document's value.
    if (serialized !== lastSeen.current) {
      lastSeen.current = serialized;
      setText(serialized);
      setError(undefined);
    }
  }, [serialized]);

  const change = (next: string) => {
    setText(next);
    if (next.trim() === '') {
      setError(undefined);
      lastSeen.current = '';
      onChange(undefined);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(next);
    } catch (e) {
      setError(`Not valid JSON: ${(e as Error).message}`);
      return;
    }
    const kind = Array.isArray(parsed) ? 'array' : parsed !== null && typeof parsed === 'object' ? 'object' : 'other';
    if (kind !== expect) {
      setError(expect === 'object' ? 'Must be a JSON object ({ … })' : 'Must be a JSON array ([ … ])');
      return;
    }
    setError(undefined);
    lastSeen.current = JSON.stringify(parsed, null, 2);
    onChange(parsed);
  };

  return (
    <Field label={label} htmlFor={id} path={path} hint={hint}>
      <textarea
        id={id}
        className="insp-input is-mono"
        rows={rows}
        value={text}
        spellCheck={false}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        data-testid={testId}
        onChange={(e) => change(e.target.value)}
      />
      {error && (
        <div className="insp-error" role="alert" data-testid="json-error">
          {error}
        </div>
      )}
    </Field>
  );
}
