import { AlertIcon } from '../icons';

/**
 * The node's validation problems: the first in full, the rest counted (all of them in the tooltip).
 * `warning`: things that do not keep it from running (drawn in the warning colour).
 */
export function NodeProblems({ problems, warning = false }: { problems: string[]; warning?: boolean }) {
  if (problems.length === 0) return null;
  return (
    <div
      className={`crew-node-problems${warning ? ' is-warning' : ''}`}
      role={warning ? 'note' : 'alert'}
      title={problems.join('\n')}
      data-testid={warning ? 'node-warnings' : 'node-problems'}
    >
      <AlertIcon size={12} />
      <span className="crew-node-problem-text">{problems[0]}</span>
      {problems.length > 1 && <span className="crew-node-problem-more">+{problems.length - 1}</span>}
    </div>
  );
}
