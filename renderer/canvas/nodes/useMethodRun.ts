/**
 * Live run overlay for the FLOW canvas (the crew canvas uses useNodeRun). Everything comes from the
 * shown run (`useRunStore`, folded by stores/reduceRunEvent.ts) and is selected narrowly, so a run
 * event re-renders only the nodes and edges it touches. Method node ids are `method:<methodId>`.
 *
 * - `useMethodRun(methodId)`   → { status, calls, route }   for a method node (status also via useNodeRun(`method:<id>`))
 * - `useTakenRoute(routerId)`  → the route label the router chose last (highlight that output handle)
 * - `useFlowEdgeRun(from, to, route?)` → 'active' | 'taken' | undefined for the edge of a listen
 *   condition: `to` listens to method `from` (or to `from`'s route `route`). 'active' while `to`'s
 *   call that this firing started is running or waiting; 'taken' once it ended.
 * - `useListenEdgeRun(source, target, data)` → the same for a flow canvas `listen` edge as drawn
 *   (method → listener, route handle → listener, member → gate → listener).
 * - `useListenerRun(listener)` → the same for an and/or gate of that listener's condition: lit once
 *   the condition fired the listener.
 */
import { methodNodeId, parseMethodNodeId } from '../../model/nodeIds';
import { selectOverlay, useRunStore, type NodeRunStatus, type RunOverlay } from '../../stores/runStore';

export interface MethodRun {
  status?: NodeRunStatus;
  /** How many times the shown run called the method (loops call a method more than once). */
  calls: number;
  /** A router's latest route. */
  route?: string;
  /** A for_each call's items: how many, and how many finished so far. */
  items?: { total: number; done: number; failed: number };
}

export function useMethodRun(methodId: string): MethodRun {
  const status = useRunStore((s) => selectOverlay(s).nodeStatus[methodNodeId(methodId)]);
  const calls = useRunStore((s) => selectOverlay(s).methods[methodId]?.calls ?? 0);
  const route = useRunStore((s) => selectOverlay(s).routes[methodId]);
  const items = useRunStore((s) => selectOverlay(s).methods[methodId]?.items);
  return { status, calls, route, items };
}

export function useTakenRoute(routerMethodId: string): string | undefined {
  return useRunStore((s) => selectOverlay(s).routes[routerMethodId]);
}

export type FlowEdgeRun = 'active' | 'taken';

export function useFlowEdgeRun(fromMethodId: string, toMethodId: string, route?: string): FlowEdgeRun | undefined {
  return useRunStore((s) => flowEdgeRun(selectOverlay(s), fromMethodId, toMethodId, route));
}

/** The selector behind useFlowEdgeRun (also usable outside React, e.g. to map a list of edges at once). */
export function flowEdgeRun(s: Pick<RunOverlay, 'triggers' | 'nodeStatus'>, fromMethodId: string, toMethodId: string, route?: string): FlowEdgeRun | undefined {
  const fired = s.triggers[toMethodId];
  if (!fired || fired.from !== fromMethodId) return undefined;
  if (route !== undefined && fired.route !== route) return undefined;
  const status = s.nodeStatus[methodNodeId(toMethodId)];
  return status === 'running' || status === 'waiting' ? 'active' : 'taken';
}

/** What a `listen` edge of the flow canvas knows about itself (its ListenEdgeData). */
export interface ListenEdgeRef {
  /** The listener's method key. */
  listener: string;
  kind: 'method' | 'route' | 'gate';
  route?: string;
}

/** 'active' while the call the listener's condition started runs or waits, 'taken' after; undefined before it fired. */
export function listenerRun(s: Pick<RunOverlay, 'triggers' | 'nodeStatus'>, listener: string): FlowEdgeRun | undefined {
  if (!s.triggers[listener]) return undefined;
  const status = s.nodeStatus[methodNodeId(listener)];
  return status === 'running' || status === 'waiting' ? 'active' : 'taken';
}

export function useListenerRun(listener: string): FlowEdgeRun | undefined {
  return useRunStore((s) => listenerRun(selectOverlay(s), listener));
}

export function useListenEdgeRun(source: string, target: string, edge: ListenEdgeRef | undefined): FlowEdgeRun | undefined {
  return useRunStore((s) => (edge ? listenEdgeRun(selectOverlay(s), source, target, edge) : undefined));
}

/**
 * A drawn edge: a direct edge lights when its source is what fired the listener; an edge into a gate
 * when its member has run and the listener fired; a gate's own edge when the listener fired.
 */
export function listenEdgeRun(s: Pick<RunOverlay, 'triggers' | 'nodeStatus' | 'methods'>, source: string, target: string, edge: ListenEdgeRef): FlowEdgeRun | undefined {
  const state = listenerRun(s, edge.listener);
  if (!state) return undefined;
  const from = parseMethodNodeId(source);
  if (edge.kind === 'gate' || from === undefined) return state;
  if (parseMethodNodeId(target) === undefined) {
    // A member of an and/or: it counts once it has run (and, for a route, chose that route).
    const member = s.methods[from];
    if (!member || member.status === 'running') return undefined;
    return edge.route === undefined || member.route === edge.route ? state : undefined;
  }
  return flowEdgeRun(s, from, edge.listener, edge.route);
}
