import { selectOverlay, useRunStore, type NodeCounters, type NodeRunStatus } from '../../stores/runStore';

/**
 * The live run state of one node, selected narrowly so a run event re-renders only the nodes it
 * touches. `alias` is a second id to read (a user agent acting as manager may be reported as either).
 */
export function useNodeRun(nodeId: string, alias?: string): { status?: NodeRunStatus; counters?: NodeCounters } {
  const status = useRunStore((s) => {
    const { nodeStatus } = selectOverlay(s);
    return nodeStatus[nodeId] ?? (alias !== undefined ? nodeStatus[alias] : undefined);
  });
  const counters = useRunStore((s) => {
    const { nodeCounters } = selectOverlay(s);
    return nodeCounters[nodeId] ?? (alias !== undefined ? nodeCounters[alias] : undefined);
  });
  return { status, counters };
}
