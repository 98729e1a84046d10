import { parseMethodNodeId, parseNodeId } from '../../model/nodeIds';
import type { RunView, TraceSpan } from '../../stores/runView';

export interface TraceRow {
  span: TraceSpan;
  /** Indentation level within the shown tree (filtered roots start at 0). */
  level: number;
  hasChildren: boolean;
  expanded: boolean;
}

/**
 * The spans a canvas selection narrows the trace to: a task node → its task spans; an agent or
 * manager node → that agent's executions; a flow method node → that method's calls. Undefined when
 * the selection has no run nodes.
 */
export function filterRoots(view: RunView, selectedNodeIds: readonly string[]): string[] | undefined {
  const tasks = new Set<string>();
  const agents = new Set<string>();
  const methods = new Set<string>();
  for (const id of selectedNodeIds) {
    const method = parseMethodNodeId(id);
    if (method !== undefined) {
      methods.add(method);
      continue;
    }
    const parsed = parseNodeId(id);
    if (parsed?.kind === 'task') tasks.add(parsed.id);
    else if (parsed) agents.add(id);
  }
  if (tasks.size === 0 && agents.size === 0 && methods.size === 0) return undefined;
  const roots: string[] = [];
  // Document order; a span inside an already-shown root is not repeated. Iterative: trees can be deep.
  const stack: { id: string; covered: boolean }[] = view.rootIds.map((id) => ({ id, covered: false })).reverse();
  while (stack.length) {
    const { id, covered } = stack.pop()!;
    const span = view.spans.get(id);
    if (!span) continue;
    const match = !covered && isMatch(span, tasks, agents, methods);
    if (match) roots.push(id);
    for (let i = span.children.length - 1; i >= 0; i--) stack.push({ id: span.children[i]!, covered: covered || match });
  }
  return roots;
}

function isMatch(span: TraceSpan, tasks: Set<string>, agents: Set<string>, methods: Set<string>): boolean {
  if (span.kind === 'method') {
    const started = span.events[0];
    return started?.type === 'flow.method.started' && methods.has(started.methodId);
  }
  if (span.kind === 'task') return span.taskId !== undefined && tasks.has(span.taskId);
  if (span.kind === 'agent') return span.agentNode !== undefined && agents.has(span.agentNode);
  return false;
}

/**
 * The row last made for a span. Spans are immutable once folded, so a row whose span, level and
 * expansion are unchanged is handed out again: a memoised row component then skips it while a live
 * run's new events re-flatten the tree every frame.
 */
const lastRow = new WeakMap<TraceSpan, TraceRow>();

function rowFor(span: TraceSpan, level: number, hasChildren: boolean, expanded: boolean): TraceRow {
  const last = lastRow.get(span);
  if (last && last.level === level && last.hasChildren === hasChildren && last.expanded === expanded) return last;
  const row = { span, level, hasChildren, expanded };
  lastRow.set(span, row);
  return row;
}

/** The visible rows: a depth-first walk that skips the children of collapsed spans. O(visible rows). */
export function flattenSpans(view: RunView, roots: readonly string[], collapsed: ReadonlySet<string>): TraceRow[] {
  const rows: TraceRow[] = [];
  const stack: { id: string; level: number }[] = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ id: roots[i]!, level: 0 });
  while (stack.length) {
    const { id, level } = stack.pop()!;
    const span = view.spans.get(id);
    if (!span) continue;
    const hasChildren = span.children.length > 0;
    const expanded = hasChildren && !collapsed.has(id);
    rows.push(rowFor(span, level, hasChildren, expanded));
    if (expanded) for (let i = span.children.length - 1; i >= 0; i--) stack.push({ id: span.children[i]!, level: level + 1 });
  }
  return rows;
}
