import type { Problem } from '../../shared/model/problems';
import { positionsFor } from '../commands/fullLayout';
import { MANAGER_NODE_ID } from '../model/nodeIds';
import { conditionLabel } from './conditionLabel';
import { modelLabel } from './modelLabel';
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
  // positionsFor places every id it is given; the origin is its own default for an id it cannot place.
  const positionOf = (nodeId: string): Position => positions[nodeId] ?? { x: 0, y: 0 };
  const problemsOf = (nodeId: string) => placement.byNode[nodeId] ?? [];

  const nodes: CrewNode[] = [];
  const edges: CrewEdge[] = [];
  const agentNodeById = new Map<string, string>();
  const delegation = managerId !== undefined || agents.some((a) => entry(a).allowDelegation === true);

  agentIds.forEach((nodeId, i) => {
    const agent = entry(agents[i]);
    const agentId = stringField(agent.id);
    if (agentId !== undefined && !agentNodeById.has(agentId)) agentNodeById.set(agentId, nodeId);
    const tools = toolNames(agent.tools);
    const role = stringField(agent.role) || agentId || `Agent ${i + 1}`;
    if (nodeId === managerId) {
      nodes.push({
        id: nodeId,
        type: 'manager',
        position: positionOf(nodeId),
        data: { source: 'agent', title: role, model: modelLabel(agent.llm), tools, delegateTo: delegateToOf(doc), problems: problemsOf(nodeId) },
      });
    } else {
      nodes.push({
        id: nodeId,
        type: 'agent',
        position: positionOf(nodeId),
        data: { role, model: modelLabel(agent.llm), tools, allowDelegation: agent.allowDelegation === true, delegation, problems: problemsOf(nodeId) },
      });
    }
  });

  if (managerId === MANAGER_NODE_ID) {
    nodes.push({
      id: MANAGER_NODE_ID,
      type: 'manager',
      position: positionOf(MANAGER_NODE_ID),
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

  const taskById = new Map<string, { index: number; nodeId: string }>();
  taskIds.forEach((nodeId, index) => {
    const id = stringField(entry(tasks[index]).id);
    if (id !== undefined && !taskById.has(id)) taskById.set(id, { index, nodeId });
  });

  taskIds.forEach((nodeId, i) => {
    const task = entry(tasks[i]);
    const agentId = stringField(task.agentId);
    const assignedNode = agentId !== undefined ? agentNodeById.get(agentId) : undefined;
    const context: TaskContextMode = task.context === 'none' ? 'none' : Array.isArray(task.context) ? 'list' : 'all';
    const output = isRecord(task.output) ? task.output : undefined;
    nodes.push({
      id: nodeId,
      type: 'task',
      position: positionOf(nodeId),
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
        const source = typeof ref === 'string' ? taskById.get(ref) : undefined;
        if (source === undefined || drawn.has(ref as string)) continue;
        drawn.add(ref as string);
        const { index: from, nodeId: sourceNode } = source;
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
    agentIds.forEach((nodeId, i) => {
      if (nodeId === managerId || stringField(entry(agents[i]).id) === managerAgent) return;
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
