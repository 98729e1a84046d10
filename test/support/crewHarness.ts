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
