import type { ComponentType } from 'react';
import type { NodeProps } from '@xyflow/react';
import type { CrewNode, CrewNodeType } from './graphTypes';
import { AgentNode } from './nodes/AgentNode';
import { ManagerNode } from './nodes/ManagerNode';
import { TaskNode } from './nodes/TaskNode';

type NodeComponents = { [K in CrewNodeType]: ComponentType<NodeProps<Extract<CrewNode, { type?: K }>>> };

/** Module scope: React Flow re-mounts every node when this object changes identity. */
export const nodeTypes = {
  agent: AgentNode,
  task: TaskNode,
  manager: ManagerNode,
} satisfies NodeComponents;
