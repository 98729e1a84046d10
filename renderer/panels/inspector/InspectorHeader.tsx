import type { ReactNode } from 'react';
import { AgentIcon, ManagerIcon, TaskIcon } from '../../canvas/icons';

/**
 * The inspector's title bar: what is selected, and actions on it. Crew parts get their icon from their
 * kind; flow parts (`flow`, `method`, `gate`) pass theirs.
 */
export function InspectorHeader({
  kind,
  icon,
  kindLabel,
  title,
  children,
}: { kind: 'agent' | 'task' | 'manager' | 'crew' | 'flow' | 'method' | 'gate'; icon?: ReactNode; kindLabel: string; title: string; children?: ReactNode }) {
  return (
    <header className="insp-header" data-kind={kind}>
      <span className="insp-header-icon" aria-hidden>
        {icon ?? (kind === 'agent' ? <AgentIcon /> : kind === 'task' ? <TaskIcon /> : kind === 'manager' ? <ManagerIcon /> : <CrewGlyph />)}
      </span>
      <div className="insp-header-text">
        <span className="insp-header-kind">{kindLabel}</span>
        <h2 className="insp-header-title" title={title} data-testid="inspector-title">
          {title}
        </h2>
      </div>
      <div className="insp-header-actions">{children}</div>
    </header>
  );
}

function CrewGlyph() {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden>
      <circle cx="5" cy="6" r="2" />
      <circle cx="11" cy="6" r="2" />
      <path d="M1.5 13c.5-2 1.8-3 3.5-3s3 1 3.5 3M7.5 13c.5-2 1.8-3 3.5-3s3 1 3.5 3" />
    </svg>
  );
}
