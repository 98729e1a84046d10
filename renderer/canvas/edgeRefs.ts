import type { EdgeRef } from '../commands/disconnect';
import type { CrewEdge } from './graphTypes';

/** The document connection an edge stands for (delegation edges are derived, not removable). */
export function edgeRef(edge: CrewEdge): EdgeRef | undefined {
  if (edge.type === 'assignment') return { kind: 'assignment', task: edge.source };
  if (edge.type === 'context') return { kind: 'context', source: edge.source, target: edge.target };
  return undefined;
}
