import { useState } from 'react';
import type { Problem } from '../../shared/model/problems';
import { AlertIcon } from './icons';

/**
 * Problems that belong to no node (crew name, inputs, "needs at least one agent"…), docked above the
 * canvas rather than floating on it: it never covers a node, the empty-state hint or the floating
 * controls, and Fit measures the canvas without it.
 */
export function ProblemBanner({ problems, of }: { problems: Problem[]; of: 'crew' | 'flow' }) {
  const [open, setOpen] = useState(true);
  if (problems.length === 0) return null;
  return (
    <div className="canvas-banner" role="alert" data-testid="canvas-problems">
      <button type="button" className="canvas-banner-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <AlertIcon size={13} />
        {problems.length === 1 ? `1 problem in the ${of}` : `${problems.length} problems in the ${of}`}
        <span className="canvas-banner-toggle" aria-hidden>
          {open ? '▾' : '▸'}
        </span>
      </button>
      {open && (
        <ul className="canvas-banner-list">
          {problems.map((p, i) => (
            <li key={`${p.path}-${i}`}>
              <code>{p.path}</code> {p.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
