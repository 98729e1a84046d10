import type { ComponentType } from 'react';
import type { EdgeProps } from '@xyflow/react';
import type { CrewEdge, CrewEdgeType } from './graphTypes';
import { AssignmentEdge } from './edges/AssignmentEdge';
import { ContextEdge } from './edges/ContextEdge';
import { DelegationEdge } from './edges/DelegationEdge';

type EdgeComponents = { [K in CrewEdgeType]: ComponentType<EdgeProps<Extract<CrewEdge, { type?: K }>>> };

/** Module scope, like nodeTypes. */
export const edgeTypes = {
  assignment: AssignmentEdge,
  context: ContextEdge,
  delegation: DelegationEdge,
} satisfies EdgeComponents;
