import { memo } from 'react';
import { BaseEdge, getBezierPath, type EdgeProps } from '@xyflow/react';
import type { AssignmentEdge as AssignmentEdgeType } from '../graphTypes';
import { ARROW_MARKER } from './EdgeMarkers';

/** Task → agent: this agent does the task. Select it and press Delete to unassign. */
export const AssignmentEdge = memo(function AssignmentEdge(props: EdgeProps<AssignmentEdgeType>) {
  const [path] = getBezierPath(props);
  return (
    <BaseEdge
      id={props.id}
      path={path}
      className={`crew-edge crew-edge--assignment${props.selected ? ' is-selected' : ''}`}
      markerEnd={`url(#${ARROW_MARKER})`}
      interactionWidth={16}
    />
  );
});
