import { memo } from 'react';
import { BaseEdge, getBezierPath, type EdgeProps } from '@xyflow/react';
import { ARROW_MARKER } from '../edges/EdgeMarkers';
import { useListenEdgeRun } from '../nodes/useMethodRun';
import type { ListenEdge as ListenEdgeType } from './flowGraphTypes';

/** A listen condition's reference: method → listener, route → listener, member → gate → listener. */
export const ListenEdge = memo(function ListenEdge(props: EdgeProps<ListenEdgeType>) {
  const [path] = getBezierPath(props);
  const kind = props.data?.kind ?? 'method';
  // Run overlay: the condition that fired lights up ('active' while its listener runs, 'taken' after).
  const run = useListenEdgeRun(props.source, props.target, props.data);
  return (
    <BaseEdge
      id={props.id}
      path={path}
      className={`crew-edge flow-edge flow-edge--${kind}${props.selected ? ' is-selected' : ''}${run ? ` is-run-${run}` : ''}`}
      markerEnd={kind === 'gate' ? undefined : `url(#${ARROW_MARKER})`}
      interactionWidth={14}
    />
  );
});
