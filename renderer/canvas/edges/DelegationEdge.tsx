import { memo } from 'react';
import { BaseEdge, type EdgeProps } from '@xyflow/react';
import { selectOverlay, useRunStore } from '../../stores/runStore';
import type { DelegationEdge as DelegationEdgeType } from '../graphTypes';
import { DELEGATION_MARKER } from './EdgeMarkers';

/**
 * Manager → coworker. Static for hierarchical crews (who the manager can delegate to); animated while a
 * delegation along it is running. Transient ones (a delegation with no static edge) are drawn only then.
 */
export const DelegationEdge = memo(function DelegationEdge(props: EdgeProps<DelegationEdgeType>) {
  const { source, target } = props;
  const active = useRunStore((s) => selectOverlay(s).activeDelegations.some((d) => d.from === source && d.to === target));
  const transient = props.data?.transient === true;
  const path = bracketPath(props.sourceX, props.sourceY, props.targetX, props.targetY);
  return (
    <BaseEdge
      id={props.id}
      path={path}
      className={`crew-edge crew-edge--delegation${active || transient ? ' is-active' : ''}`}
      markerEnd={`url(#${DELEGATION_MARKER})`}
    />
  );
});

/** Out of the right side of both nodes and back: a bracket that keeps clear of the agents column. */
function bracketPath(sx: number, sy: number, tx: number, ty: number): string {
  const bow = 36 + Math.min(Math.abs(ty - sy), 900) * 0.12 + Math.max(0, sx - tx);
  return `M ${sx},${sy} C ${sx + bow},${sy} ${tx + bow},${ty} ${tx},${ty}`;
}
