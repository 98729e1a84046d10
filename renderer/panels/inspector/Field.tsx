import type { ReactNode } from 'react';
import { useProblemsAt } from './problemsContext';

export type FieldProps = {
  label: string;
  /** Id of the control the label names. */
  htmlFor?: string;
  /** Document path of the value (`tasks.0.description`), to show its validation messages. */
  path?: string;
  /** Show only problems exactly at `path` (sub-editors show the deeper ones). */
  exactProblems?: boolean;
  hint?: ReactNode;
  children: ReactNode;
};

/** Label, control, hint and the field's validation messages. */
export function Field({ label, htmlFor, path, exactProblems, hint, children }: FieldProps) {
  const problems = useProblemsAt(path, exactProblems);
  return (
    <div className="insp-field" data-invalid={problems.length > 0 || undefined}>
      <label className="insp-label" htmlFor={htmlFor}>
        {label}
      </label>
      {children}
      {hint && <div className="insp-hint">{hint}</div>}
      <FieldProblems messages={problems} />
    </div>
  );
}

export function FieldProblems({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <>
      {messages.map((message, i) => (
        <div key={i} className="insp-error" role="alert" data-testid="field-problem">
          {message}
        </div>
      ))}
    </>
  );
}

/** A stable DOM id for the control of a document path. */
export const controlId = (path: string) => `insp-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`;
