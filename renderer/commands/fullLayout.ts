import { MANAGER_NODE_ID } from '../model/nodeIds';
import { NODE_SIZE, type Size } from '../model/nodeSizes';
import { computeAutoLayout } from './autoLayout';
import { entry, isRecord, layoutOf, stringField, tasksOf, type CrewDraft, type Position } from './crewDraft';
import { agentNodeIds, managerNodeId, taskNodeIds } from './nodeRefs';

/** Extra height of a node that shows a problem message under it. */
const PROBLEM_HEIGHT = 44;

/**
 * The document with a saved position for every node (those it lacked get what the canvas shows).
 * The store applies it before the first edit of a document without a full layout, so nodes do not
 * jump when the structure changes and the auto-layout would place them differently.
 */
export function withFullLayout(doc: CrewDraft): CrewDraft {
  const nodeIds = [...agentNodeIds(doc), ...taskNodeIds(doc), ...(managerNodeId(doc) === MANAGER_NODE_ID ? [MANAGER_NODE_ID] : [])];
  const saved = layoutOf(doc);
  if (nodeIds.every((id) => saved[id])) return doc;
  const positions = positionsFor(doc, nodeIds);
  return { ...doc, layout: { ...(isRecord(doc.layout) ? doc.layout : {}), ...positions } };
}

let autoCache: { key: string; positions: Record<string, Position> } | undefined;

/** Saved positions, and auto-layout positions for nodes without one (below the saved ones). */
export function positionsFor(doc: CrewDraft, nodeIds: string[], withProblems: readonly string[] = []): Record<string, Position> {
  const saved = layoutOf(doc);
  const missing = nodeIds.filter((id) => !saved[id]);
  if (missing.length === 0) return saved;
  const out: Record<string, Position> = { ...saved };
  // A crew switched to hierarchical: its manager goes above the agents it delegates to, not under the tasks.
  const agents = savedAt(saved, agentNodeIds(doc));
  if (missing.length === 1 && missing[0] === MANAGER_NODE_ID && agents.length > 0) {
    out[MANAGER_NODE_ID] = { x: Math.min(...agents.map((p) => p.x)), y: Math.min(...agents.map((p) => p.y)) - NODE_SIZE.manager.height - 72 };
    return out;
  }
  const auto = cachedAutoLayout(doc, withProblems);
  const placed = savedAt(saved, nodeIds);
  let dx = 0;
  let dy = 0;
  if (placed.length > 0) {
    // Keep newcomers clear of what the person arranged: put them under it.
    const bottom = Math.max(...placed.map((p) => p.y)) + 160;
    const top = Math.min(...missing.map((id) => auto[id]?.y ?? 0));
    dx = Math.min(...placed.map((p) => p.x)) - Math.min(...missing.map((id) => auto[id]?.x ?? 0));
    dy = bottom - top;
  }
  for (const id of missing) {
    const p = auto[id] ?? { x: 0, y: 0 };
    out[id] = { x: p.x + dx, y: p.y + dy };
  }
  return out;
}

/** The saved positions of those of `nodeIds` that have one, in order. */
function savedAt(saved: Readonly<Record<string, Position>>, nodeIds: readonly string[]): Position[] {
  return nodeIds.flatMap((id) => {
    const position = saved[id];
    return position ? [position] : [];
  });
}

/** Auto-layout depends only on the graph's structure; typing a role must not re-run it. */
function cachedAutoLayout(doc: CrewDraft, withProblems: readonly string[]): Record<string, Position> {
  const key = JSON.stringify([
    withProblems,
    agentNodeIds(doc),
    taskNodeIds(doc),
    managerNodeId(doc) ?? '',
    tasksOf(doc).map((t) => stringField(entry(t).agentId) ?? ''),
  ]);
  if (autoCache?.key !== key) {
    // Nodes showing problems are taller: leave room for the message.
    const sizes: Record<string, Size> = {};
    for (const id of withProblems) {
      const kind = id === MANAGER_NODE_ID ? 'manager' : id.startsWith('task:') ? 'task' : 'agent';
      sizes[id] = { width: NODE_SIZE[kind].width, height: NODE_SIZE[kind].height + PROBLEM_HEIGHT };
    }
    autoCache = { key, positions: computeAutoLayout(doc, sizes) };
  }
  return autoCache.positions;
}
