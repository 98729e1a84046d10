import { AlertIcon } from '../icons';

/** The node's validation problems: the first in full, the rest counted (all of them in the tooltip). */
export function NodeProblems({ problems }: { problems: string[] }) {
  if (problems.length === 0) return null;
  return (
    <div className="crew-node-problems" role="alert" title={problems.join('\n')} data-testid="node-problems">
      <AlertIcon size={12} />
      <span className="crew-node-problem-text">{problems[0]}</span>
      {problems.length > 1 && <span className="crew-node-problem-more">+{problems.length - 1}</span>}
    </div>
  );
}
