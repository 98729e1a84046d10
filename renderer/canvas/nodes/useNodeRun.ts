import { useRunStore, type NodeCounters, type NodeRunStatus } from '../../stores/runStore';

/**
 * The live run state of one node, selected narrowly so a run event re-renders only the nodes it
 * touches. `alias` is a second id to read (a user agent acting as manager may be reported as either).
 */
export function useNodeRun(nodeId: string, alias?: string): { status?: NodeRunStatus; counters?: NodeCounters } {
  const status = useRunStore((s) => s.nodeStatus[nodeId] ?? (alias !== undefined ? s.nodeStatus[alias] : undefined));
  const counters = useRunStore((s) => s.nodeCounters[nodeId] ?? (alias !== undefined ? s.nodeCounters[alias] : undefined));
  return { status, counters };
}
