import { useContext } from 'react';
import { ProblemsContext } from './problemsContext';

/**
 * Problems about this agent/task/crew that no field shows (an unknown key, the entry itself being
 * malformed…), so nothing the validator says is hidden.
 */
export function OtherProblems({ prefix, fields }: { prefix: string; fields: readonly string[] }) {
  const problems = useContext(ProblemsContext);
  const known = new Set(fields);
  const other = problems.filter((p) => {
    if (prefix === '') {
      const [head = ''] = p.path.split('.');
      return !known.has(head);
    }
    if (p.path === prefix) return true;
    if (!p.path.startsWith(`${prefix}.`)) return false;
    const [field = ''] = p.path.slice(prefix.length + 1).split('.');
    return !known.has(field);
  });
  if (other.length === 0) return null;
  return (
    <div className="insp-other-problems" role="alert" data-testid="inspector-other-problems">
      {other.map((p, i) => (
        <div key={i} className="insp-error">
          {p.path !== prefix && <code>{prefix ? p.path.slice(prefix.length + 1) : p.path}</code>} {p.message}
        </div>
      ))}
    </div>
  );
}
