import { useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { controlId, Field } from '../Field';

const INDENT = '  ';

type Props = { label: string; path: string; value: unknown; onChange(value: string): void; hint?: ReactNode; testId?: string };

/**
 * A code box: monospace, line numbers, Tab inserts spaces (Shift+Tab removes them at the line start),
 * no spell checking. Escape then Tab leaves the box, as usual for editors that keep Tab.
 */
export function CodeEditor({ label, path, value, onChange, hint, testId }: Props) {
  const id = controlId(path);
  const text = typeof value === 'string' ? value : '';
  const lines = text.split('\n').length;
  const ref = useRef<HTMLTextAreaElement>(null);
  const caret = useRef<number | undefined>(undefined);
  const escaped = useRef(false);
  useLayoutEffect(() => {
    if (caret.current !== undefined && ref.current) {
      ref.current.setSelectionRange(caret.current, caret.current);
      caret.current = undefined;
    }
  });
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      escaped.current = true;
      return;
    }
    if (event.key !== 'Tab' || escaped.current) {
      escaped.current = false;
      return;
    }
    event.preventDefault();
    const area = event.currentTarget;
    const { selectionStart: start, selectionEnd: end } = area;
    if (event.shiftKey) {
      const lineStart = text.lastIndexOf('\n', start - 1) + 1;
      if (text.startsWith(INDENT, lineStart)) {
        caret.current = Math.max(lineStart, start - INDENT.length);
        onChange(text.slice(0, lineStart) + text.slice(lineStart + INDENT.length));
      }
      return;
    }
    caret.current = start + INDENT.length;
    onChange(text.slice(0, start) + INDENT + text.slice(end));
  };
  return (
    <Field label={label} htmlFor={id} path={path} hint={hint}>
      <div className="flow-code">
        <div className="flow-code-lines" aria-hidden>
          {Array.from({ length: lines }, (_, i) => i + 1).join('\n')}
        </div>
        <textarea
          ref={ref}
          id={id}
          value={text}
          rows={Math.max(10, lines + 1)}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          wrap="off"
          data-testid={testId}
          onKeyDown={onKeyDown}
          onChange={(e) => onChange(e.target.value)}
        />
      </div>
    </Field>
  );
}
