import type { ReactNode } from 'react';
import { BodyIcon } from '../../../canvas/flow/BodyIcon';

/** The inspector's title bar for a flow, a method (icon of its body kind) or a gate. */
export function FlowHeader({ kind, icon, kindLabel, title, children }: { kind: 'flow' | 'method' | 'gate'; icon: string; kindLabel: string; title: string; children?: ReactNode }) {
  return (
    <header className="insp-header" data-kind={kind}>
      <span className="insp-header-icon" aria-hidden>
        <BodyIcon kind={icon} />
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
