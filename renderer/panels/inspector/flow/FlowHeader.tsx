import type { ReactNode } from 'react';
import { BodyIcon } from '../../../canvas/flow/BodyIcon';
import { InspectorHeader } from '../InspectorHeader';

/** The inspector's title bar for a flow, a method (icon of its body kind) or a gate. */
export function FlowHeader({ kind, icon, ...rest }: { kind: 'flow' | 'method' | 'gate'; icon: string; kindLabel: string; title: string; children?: ReactNode }) {
  return <InspectorHeader kind={kind} icon={<BodyIcon kind={icon} />} {...rest} />;
}
