import { parseMethodNodeId, parseNodeId } from '../../model/nodeIds';
import type { RunView } from '../../stores/runView';
import { useUiStore } from '../../stores/uiStore';

/** "Filtered by Task: Write the brief ×" — the canvas selection narrowing the trace. */
export function FilterChip({ view, nodeIds }: { view: RunView; nodeIds: readonly string[] }) {
  const names = nodeIds.map((id) => nodeName(view, id)).filter((n): n is string => n !== undefined);
  if (names.length === 0) return null;
  return (
    <span className="trace-filter-chip" data-testid="trace-filter" title={`Filtered by ${names.join(', ')}`}>
      <span className="trace-filter-names">
        {names.length > 2 ? `filtered by ${names.length} nodes: ${names.join(', ')}` : `filtered by ${names.join(', ')}`}
      </span>
      <button className="trace-filter-clear" aria-label="Clear trace filter" onClick={() => useUiStore.getState().select([])}>
        ×
      </button>
    </span>
  );
}

function nodeName(view: RunView, nodeId: string): string | undefined {
  const method = parseMethodNodeId(nodeId);
  if (method !== undefined) return `method ${view.methods[method]?.name ?? method}`;
  const parsed = parseNodeId(nodeId);
  if (!parsed) return undefined;
  if (parsed.kind === 'task') return `task ${view.tasks[parsed.id]?.name ?? parsed.id}`;
  for (const span of view.spans.values()) {
    if (span.kind === 'agent' && span.agentNode === nodeId) return `agent ${span.label}`;
  }
  return parsed.kind === 'manager' ? 'manager' : `agent ${parsed.id}`;
}
