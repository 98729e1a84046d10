import { memo } from 'react';
import { BaseEdge, getBezierPath, type EdgeProps } from '@xyflow/react';
import type { ContextEdge as ContextEdgeType } from '../graphTypes';
import { CONTEXT_MARKER } from './EdgeMarkers';

/**
 * Earlier task → later task: the later one gets this output as context. Between neighbours it is a
 * short straight link; across other tasks it bows out to the left of the column so it does not run
 * through them (wider for longer spans, so parallel links stay apart).
 */
export const ContextEdge = memo(function ContextEdge(props: EdgeProps<ContextEdgeType>) {
  const span = props.data?.span ?? 1;
  // Neighbours: a short link. Further apart, or backwards (an invalid entry): around the left.
  const path = span !== 1 ? bowedPath(props.sourceX, props.sourceY, props.targetX, props.targetY, span) : getBezierPath(props)[0];
  const invalid = props.data?.invalid === true;
  return (
    <BaseEdge
      id={props.id}
      path={path}
      className={`crew-edge crew-edge--context${props.selected ? ' is-selected' : ''}${invalid ? ' is-invalid' : ''}`}
      markerEnd={`url(#${CONTEXT_MARKER})`}
      interactionWidth={14}
    />
  );
});

function bowedPath(sx: number, sy: number, tx: number, ty: number, span: number): string {
  const bow = 190 + Math.max(0, Math.min(Math.abs(span) - 2, 8)) * 22;
  const drop = Math.min(80, Math.abs(ty - sy) / 3);
  return `M ${sx},${sy} C ${sx - bow},${sy + drop} ${tx - bow},${ty - drop} ${tx},${ty}`;
}
