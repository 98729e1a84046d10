import type { Edge, Node } from '@xyflow/react';

/** How a method is triggered, for its colour: starts the flow, listens, or chooses a route. */
export type MethodRole = 'start' | 'listen' | 'router';

export type MethodNodeData = {
  /** The method's key (its id, or `#<index>` without a usable one). */
  key: string;
  name: string;
  role: MethodRole;
  /** A router can also be a start method. */
  start: boolean;
  bodyKind: string;
  summary: string;
  routes: string[];
  problems: string[];
  /** Not problems (the flow runs), but probably not meant: never runs, a route with no listener. */
  warnings: string[];
};

export type GateNodeData = {
  op: 'and' | 'or';
  /** The listener's method key and the gate's place in its condition. */
  listener: string;
  path: number[];
  listenerName: string;
  members: number;
};

export type ListenEdgeData = { listener: string; path: number[]; kind: 'method' | 'route' | 'gate'; route?: string };

export type MethodNode = Node<MethodNodeData, 'method'>;
export type GateNode = Node<GateNodeData, 'gate'>;
export type FlowNode = MethodNode | GateNode;
export type ListenEdge = Edge<ListenEdgeData, 'listen'>;
