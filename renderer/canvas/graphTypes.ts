import type { Edge, Node } from '@xyflow/react';

/** What each canvas node shows. Run status is not here: nodes read it from the run store. */
export type AgentNodeData = {
  role: string;
  model: string;
  tools: string[];
  allowDelegation: boolean;
  /** Delegation edges can reach this agent (hierarchical crew, or agents that delegate): render their handles. */
  delegation: boolean;
  problems: string[];
  /** Large crews (or a folded agent): its assigned tasks can fold into it (collapseByAgent). */
  fold?: { tasks: number; collapsed: boolean };
};

export type ManagerNodeData = {
  /** "builtin": the crew's own manager; "agent": a user agent named by manager.agentId. */
  source: 'builtin' | 'agent';
  title: string;
  model: string;
  tools: string[];
  delegateTo: 'assigned' | 'all';
  problems: string[];
};

export type TaskContextMode = 'all' | 'none' | 'list';

export type TaskNodeData = {
  order: number;
  title: string;
  excerpt: string;
  guardrails: number;
  humanInput: boolean;
  async: boolean;
  condition?: string;
  context: TaskContextMode;
  assigned: boolean;
  outputFormat?: string;
  /** Task-level tool override (count), when the task sets its own tools. */
  toolOverride?: number;
  taskCount: number;
  problems: string[];
};

export type AgentNode = Node<AgentNodeData, 'agent'>;
export type ManagerNode = Node<ManagerNodeData, 'manager'>;
export type TaskNode = Node<TaskNodeData, 'task'>;
export type CrewNode = AgentNode | ManagerNode | TaskNode;
export type CrewNodeType = NonNullable<CrewNode['type']>;

export type AssignmentEdgeData = { task: string };
export type ContextEdgeData = { source: string; target: string; span: number; invalid: boolean };
export type DelegationEdgeData = { transient: boolean };

export type AssignmentEdge = Edge<AssignmentEdgeData, 'assignment'>;
export type ContextEdge = Edge<ContextEdgeData, 'context'>;
export type DelegationEdge = Edge<DelegationEdgeData, 'delegation'>;
export type CrewEdge = AssignmentEdge | ContextEdge | DelegationEdge;
export type CrewEdgeType = NonNullable<CrewEdge['type']>;

/** Handle ids (stable: connections and edges refer to them). */
export const HANDLE = {
  taskIn: 'in',
  taskOut: 'out',
  taskAssign: 'assign',
  agentIn: 'in',
  agentManager: 'mgr',
  managerOut: 'delegate',
} as const;
