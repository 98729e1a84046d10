import type { Problem } from '../../shared/model/problems';
import { MANAGER_NODE_ID } from './nodeIds';
import { computeAutoLayout } from './autoLayout';
import { conditionLabel } from './conditionLabel';
import { modelLabel } from './modelLabel';
import { NODE_SIZE, type Size } from './nodeSizes';
import { problemsToNodes } from './problemsToNodes';
import {
  HANDLE,
  type CrewEdge,
  type CrewNode,
  type TaskContextMode,
} from './graphTypes';
import {
  agentsOf,
  entry,
  isRecord,
  layoutOf,
  managerAgentId,
  managerOf,
  stringField,
  tasksOf,
  type CrewDraft,
  type Position,
} from '../commands/crewDraft';
import { agentNodeIds, managerNodeId, taskNodeIds } from '../commands/nodeRefs';

export type CrewGraph = {
  nodes: CrewNode[];
  edges: CrewEdge[];
  /** Problems that belong to no node, for the canvas banner. */
  generalProblems: Problem[];
};

const EXCERPT_LENGTH = 140;
const PROBLEM_HEIGHT = 44;

/**
 * The crew document (as saved, possibly invalid) drawn as React Flow nodes and edges.
 * - agents → `agent` nodes; the user agent named as manager of a hierarchical crew → a `manager` node;
 *   a hierarchical crew without one → the built-in `manager` node.
 * - tasks → `task` nodes numbered by array position.
 * - `task.agentId` → an assignment edge task → agent.
 * - `task.context` as a list → one context edge per entry, from the named task to this one. Omitted
 *   context (all prior outputs, the default) draws no edges: the node says "all prior" instead, since
 *   n tasks would otherwise need n²/2 edges that carry no decision.
 * - hierarchical crews → delegation edges manager → every worker agent.
 * Positions come from `doc.layout[nodeId]`; nodes without one get the auto-layout's position.
 */
export function documentToGraph(doc: CrewDraft, problems: readonly Problem[] = []): CrewGraph {
  const agents = agentsOf(doc);
  const tasks = tasksOf(doc);
  const agentIds = agentNodeIds(doc);
  const taskIds = taskNodeIds(doc);
  const managerId = managerNodeId(doc);
  const managerAgent = managerAgentId(doc);
  const placement = problemsToNodes(doc, problems);
  const positions = positionsFor(doc, [...agentIds, ...taskIds, ...(managerId === MANAGER_NODE_ID ? [MANAGER_NODE_ID] : [])], Object.keys(placement.byNode));
  const problemsOf = (nodeId: string) => placement.byNode[nodeId] ?? [];

  const nodes: CrewNode[] = [];
  const edges: CrewEdge[] = [];
  const agentNodeById = new Map<string, string>();
  const delegation = managerId !== undefined || agents.some((a) => entry(a).allowDelegation === true);

  agents.forEach((raw, i) => {
    const agent = entry(raw);
    const nodeId = agentIds[i];
    const agentId = stringField(agent.id);
    if (agentId !== undefined && !agentNodeById.has(agentId)) agentNodeById.set(agentId, nodeId);
    const tools = toolNames(agent.tools);
    const role = stringField(agent.role) || agentId || `Agent ${i + 1}`;
    if (nodeId === managerId) {
      nodes.push({
        id: nodeId,
        type: 'manager',
        position: positions[nodeId],
        data: { source: 'agent', title: role, model: modelLabel(agent.llm), tools, delegateTo: delegateToOf(doc), problems: problemsOf(nodeId) },
      });
    } else {
      nodes.push({
        id: nodeId,
        type: 'agent',
        position: positions[nodeId],
        data: { role, model: modelLabel(agent.llm), tools, allowDelegation: agent.allowDelegation === true, delegation, problems: problemsOf(nodeId) },
      });
    }
  });

  if (managerId === MANAGER_NODE_ID) {
    nodes.push({
      id: MANAGER_NODE_ID,
      type: 'manager',
      position: positions[MANAGER_NODE_ID],
      deletable: false,
      data: {
        source: 'builtin',
        title: 'Manager',
        model: modelLabel(managerOf(doc)?.llm),
        tools: [],
        delegateTo: delegateToOf(doc),
        problems: problemsOf(MANAGER_NODE_ID),
      },
    });
  }

  const taskIndexById = new Map<string, number>();
  tasks.forEach((raw, i) => {
    const id = stringField(entry(raw).id);
    if (id !== undefined && !taskIndexById.has(id)) taskIndexById.set(id, i);
  });

  tasks.forEach((raw, i) => {
    const task = entry(raw);
    const nodeId = taskIds[i];
    const agentId = stringField(task.agentId);
    const assignedNode = agentId !== undefined ? agentNodeById.get(agentId) : undefined;
    const context: TaskContextMode = task.context === 'none' ? 'none' : Array.isArray(task.context) ? 'list' : 'all';
    const output = isRecord(task.output) ? task.output : undefined;
    nodes.push({
      id: nodeId,
      type: 'task',
      position: positions[nodeId],
      data: {
        order: i + 1,
        title: stringField(task.name) || stringField(task.id) || `Task ${i + 1}`,
        excerpt: excerpt(stringField(task.description) ?? ''),
        guardrails: Array.isArray(task.guardrails) ? task.guardrails.length : 0,
        humanInput: task.humanInput === true,
        async: task.async === true,
        condition: conditionLabel(task.condition),
        context,
        assigned: assignedNode !== undefined,
        outputFormat: typeof output?.format === 'string' && output.format !== 'text' ? output.format : undefined,
        toolOverride: Array.isArray(task.tools) ? task.tools.length : undefined,
        taskCount: tasks.length,
        problems: problemsOf(nodeId),
      },
    });

    if (assignedNode !== undefined) {
      edges.push({
        id: `assign|${nodeId}`,
        type: 'assignment',
        source: nodeId,
        sourceHandle: HANDLE.taskAssign,
        target: assignedNode,
        targetHandle: HANDLE.agentIn,
        data: { task: nodeId },
      });
    }

    if (Array.isArray(task.context)) {
      const drawn = new Set<string>();
      for (const ref of task.context) {
        const from = typeof ref === 'string' ? taskIndexById.get(ref) : undefined;
        if (from === undefined || drawn.has(ref as string)) continue;
        drawn.add(ref as string);
        const sourceNode = taskIds[from];
        edges.push({
          id: `ctx|${sourceNode}|${nodeId}`,
          type: 'context',
          source: sourceNode,
          sourceHandle: HANDLE.taskOut,
          target: nodeId,
          targetHandle: HANDLE.taskIn,
          data: { source: sourceNode, target: nodeId, span: i - from, invalid: from >= i },
        });
      }
    }
  });

  if (managerId !== undefined) {
    agents.forEach((raw, i) => {
      const nodeId = agentIds[i];
      if (nodeId === managerId || stringField(entry(raw).id) === managerAgent) return;
      edges.push({
        id: delegationEdgeId(managerId, nodeId),
        type: 'delegation',
        source: managerId,
        sourceHandle: HANDLE.managerOut,
        target: nodeId,
        targetHandle: HANDLE.agentManager,
        selectable: false,
        deletable: false,
        data: { transient: false },
      });
    });
  }

  return { nodes, edges, generalProblems: placement.general };
}

export const delegationEdgeId = (from: string, to: string) => `mgr|${from}|${to}`;

function delegateToOf(doc: CrewDraft): 'assigned' | 'all' {
  return managerOf(doc)?.delegateTo === 'all' ? 'all' : 'assigned';
}

function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((t) => (isRecord(t) && typeof t.tool === 'string' ? t.tool : '?'));
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH - 1).trimEnd()}…` : flat;
}

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
function positionsFor(doc: CrewDraft, nodeIds: string[], withProblems: readonly string[] = []): Record<string, Position> {
  const saved = layoutOf(doc);
  const missing = nodeIds.filter((id) => !saved[id]);
  if (missing.length === 0) return saved;
  const auto = cachedAutoLayout(doc, withProblems);
  const out: Record<string, Position> = { ...saved };
  const placed = nodeIds.filter((id) => saved[id]).map((id) => saved[id]);
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
