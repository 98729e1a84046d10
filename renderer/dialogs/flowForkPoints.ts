import type { RuntimeEvent } from '../../shared/events';

/** A method a flow run can be forked from: where it first started, and the state at that moment. */
export interface FlowForkPoint {
  methodId: string;
  name: string;
  /** It started in the run (a method that never ran is no fork point). */
  started: boolean;
  /** The state when it first started (what `--set-state` edits). */
  state: Record<string, unknown>;
  /** Its output in the run, when it completed. */
  output?: string;
}

/**
 * The methods of a recorded flow run in the order they first started (then those that never ran), each
 * with the state it started with: the state after the last method completed before it, or the initial
 * state with the run's inputs. The same fork point the runtime uses (runtime/flow/flowFork.ts).
 */
export function flowForkPoints(document: unknown, inputs: Record<string, string>, events: readonly RuntimeEvent[]): FlowForkPoint[] {
  const doc = document as { methods?: { id?: unknown; name?: unknown }[]; state?: { initial?: Record<string, unknown> } } | null;
  const methods = Array.isArray(doc?.methods) ? doc.methods.filter((m): m is { id: string; name?: unknown } => typeof m?.id === 'string') : [];
  const nameOf = new Map(methods.map((m) => [m.id, typeof m.name === 'string' ? m.name : m.id]));
  let state: Record<string, unknown> = { ...(doc?.state?.initial ?? {}), ...inputs };
  const points = new Map<string, FlowForkPoint>();
  const outputs = new Map<string, string>();
  for (const e of events) {
    if (e.type === 'flow.method.started' && !points.has(e.methodId)) {
      points.set(e.methodId, { methodId: e.methodId, name: nameOf.get(e.methodId) ?? e.methodName, started: true, state });
    } else if (e.type === 'flow.method.completed') {
      state = e.state;
      if (!outputs.has(e.methodId)) outputs.set(e.methodId, e.output);
    }
  }
  for (const m of methods) if (!points.has(m.id)) points.set(m.id, { methodId: m.id, name: nameOf.get(m.id)!, started: false, state: {} });
  return [...points.values()].map((p) => (outputs.has(p.methodId) ? { ...p, output: outputs.get(p.methodId) } : p));
}

/** How a state value is shown for editing: text as it is, anything else as JSON. */
export function stateText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** An edited field as the fork gets it: JSON when it parses as JSON, else the text (as `--set-state`). */
export function stateValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
