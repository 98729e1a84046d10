/** A failed request in a dialog: the message, and the document's problems (path: message) when there are any. */
export interface DialogErrorValue {
  message: string;
  problems?: { path: string; message: string }[];
}

export function DialogError({ error, testId }: { error: DialogErrorValue | undefined; testId: string }) {
  if (!error) return null;
  return (
    <div className="dialog-error" data-testid={testId}>
      {error.message}
      {error.problems && error.problems.length > 0 && (
        <ul className="dialog-problems">
          {error.problems.map((p, i) => (
            <li key={i}>
              <code>{p.path}</code>: {p.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
