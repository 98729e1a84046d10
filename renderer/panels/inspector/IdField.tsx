import { useEffect, useState } from 'react';
import { controlId, Field } from './Field';

type Props = {
  label?: string;
  path: string;
  value: unknown;
  /** Applies the new id; returns why not when it is refused. */
  onCommit(next: string): string | undefined;
  hint?: string;
  testId?: string;
};

/**
 * An id is renamed as a whole (Enter or leaving the field), never per keystroke: the rename updates
 * every reference, and half-typed ids could collide with others on the way.
 */
export function IdField({ label = 'Id', path, value, onCommit, hint, testId }: Props) {
  const id = controlId(path);
  const current = typeof value === 'string' ? value : '';
  const [text, setText] = useState(current);
  const [refused, setRefused] = useState<string>();
  useEffect(() => {
    setText(current);
    setRefused(undefined);
  }, [current]);
  const commit = () => {
    if (text === current) return;
    const reason = onCommit(text);
    setRefused(reason);
  };
  return (
    <Field label={label} htmlFor={id} path={path} hint={hint}>
      <input
        id={id}
        className="insp-input is-mono"
        value={text}
        spellCheck={false}
        data-testid={testId}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') {
            setText(current);
            setRefused(undefined);
          }
        }}
      />
      {refused && (
        <div className="insp-error" role="alert">
          {refused}
        </div>
      )}
    </Field>
  );
}
