import { GateNode } from './GateNode';
import { ListenEdge } from './ListenEdge';
import { MethodNode } from './MethodNode';

/** Module scope: React Flow re-mounts every node when these objects change identity. */
export const flowNodeTypes = { method: MethodNode, gate: GateNode };
export const flowEdgeTypes = { listen: ListenEdge };
