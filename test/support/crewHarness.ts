import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CrewDocumentSchema, type CrewDocument, type CrewDocumentInput } from '../../shared/model/crew';
import type { EventOf, RuntimeEvent, RuntimeEventType } from '../../shared/events';
import type { Script } from '../../runtime/llm/script';
import { createRuntime, type RuntimeOptions } from '../../runtime/runtime';
import { SqliteRunStore } from '../../runtime/store/sqliteRunStore';

/** A temporary workspace with a real SQLite store; remove() deletes it. */
export function tempWorkspace(prefix = 'crewdeck-test-'): { dir: string; store: SqliteRunStore; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const store = SqliteRunStore.open(dir);
  return {
    dir,
    store,
    remove() {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An inline scripted model reference. */
export function scripted(script: Script | Record<string, unknown>, model = 'test', extra: Record<string, unknown> = {}) {
  return { provider: 'scripted' as const, model, script: script as Record<string, unknown>, ...extra };
}

/** Parses a crew through the real schema (defaults applied), failing loudly on problems. */
export function crew(input: Partial<CrewDocumentInput> | Record<string, unknown>): CrewDocument {
  const defaults = { kind: 'crew', version: 1, id: 'test-crew', name: 'Test crew' };
  return CrewDocumentSchema.parse(Object.assign(defaults, input));
}

/** Runs a crew in a fresh workspace and returns the result plus every event. */
export async function runCrew(
  doc: CrewDocument,
  options: Partial<Omit<RuntimeOptions, 'workspace'>> & { inputs?: Record<string, string>; workspace?: ReturnType<typeof tempWorkspace> } = {},
) {
  const { workspace, inputs, ...runtimeOptions } = options;
  const ws = workspace ?? tempWorkspace();
  const events: RuntimeEvent[] = [];
  const runtime = createRuntime({ ...runtimeOptions, workspace: ws.dir, store: ws.store });
  const result = await runtime.runCrew(doc, { inputs, onEvent: (e) => events.push(e) });
  // Every run these tests make must leave a well-formed trace, whatever else they check.
  const problems = traceProblems(events);
  if (problems.length > 0) throw new Error(`malformed trace:\n${problems.join('\n')}`);
  return { result, events, ws, runtime };
}

export function ofType<K extends RuntimeEventType>(events: RuntimeEvent[], type: K): EventOf<K>[] {
  return events.filter((e): e is EventOf<K> => e.type === type);
}

/** The user message of each agent model call, in order. */
export function agentPrompts(events: RuntimeEvent[], role?: string): string[] {
  return ofType(events, 'llm.started')
    .filter((e) => e.purpose === 'agent' && (role === undefined || e.agentRole === role))
    .map((e) => e.messages.find((m) => m.role === 'user')?.content ?? '');
}

const SPAN_STARTS = new Set(['run.started', 'task.started', 'agent.started', 'llm.started', 'tool.started', 'delegation.started', 'guardrail.started', 'human.requested', 'planning.started', 'memory.write.staged', 'flow.method.started', 'flow.item.started']);

function endsSpan(e: RuntimeEvent): boolean {
  if (e.type === 'llm.failed') return !e.willRetry;
  // A paused run's root span goes on when the run resumes; a paused task, agent, method or item ends.
  if (e.type === 'run.paused') return false;
  return /\.(completed|failed|cancelled|blocked|cached|passed|answered|committed|discarded|paused)$/.test(e.type);
}

/**
 * Checks the trace's shape: every span that was opened is closed on the same span id, nothing
 * happens on a span after it closed, children name an open parent, and the run's end is the last event.
 * Returns the problems found (empty when the trace is well formed).
 */
export function traceProblems(events: RuntimeEvent[]): string[] {
  const problems: string[] = [];
  const open = new Map<string, string>();
  const closed = new Set<string>();
  for (const e of events) {
    if (closed.has(e.spanId)) problems.push(`#${e.seq} ${e.type} on closed span ${e.spanId}`);
    if (e.parentSpanId !== undefined && !open.has(e.parentSpanId)) problems.push(`#${e.seq} ${e.type} under span ${e.parentSpanId}, which is not open`);
    if (SPAN_STARTS.has(e.type)) {
      if (open.has(e.spanId)) problems.push(`#${e.seq} ${e.type} reopens span ${e.spanId}`);
      open.set(e.spanId, e.type);
    } else if (endsSpan(e)) {
      // An end event on a span never opened is a one-event span (task.skipped, a delegation to nobody).
      open.delete(e.spanId);
      closed.add(e.spanId);
    }
  }
  for (const [span, type] of open) problems.push(`span ${span} (${type}) never closed`);
  const last = events.at(-1);
  if (last && !/^run\.(completed|failed|cancelled)$/.test(last.type)) problems.push(`last event is ${last.type}, not the run's end`);
  return problems;
}
