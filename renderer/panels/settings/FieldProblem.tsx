/** A validation message under a field. */
export function FieldProblem({ message, id }: { message?: string; id?: string }) {
  if (!message) return null;
  return (
    <div className="settings-problem" id={id} role="alert">
      {message}
    </div>
  );
}
