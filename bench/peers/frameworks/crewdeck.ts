// Crewdeck: the runtime in-process, exactly as `crewdeck run` and the app use it — the real openai
// provider (streaming) over HTTP and every event persisted to a SQLite run store in a temp workspace.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CrewDocumentSchema } from '../../../shared/model/crew';
import { createRuntime } from '../../../runtime/runtime';
import { SqliteRunStore } from '../../../runtime/store/sqliteRunStore';
import { delegationPrompt, parallelPrompt, SYSTEM, taskPrompt } from './workloads.mjs';

export const name = 'Crewdeck';
export const streams = true;
export const persists = 'every event (SQLite, WAL)';

const llm = (baseUrl: string) => ({ provider: 'openai' as const, model: 'bench', baseUrl, stream: true });

async function runDoc(baseUrl: string, doc: unknown): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-crewdeck-'));
  const store = SqliteRunStore.open(dir);
  // The zero-latency server is the user's own model server (OPENAI_BASE_URL), as a local one would be:
  // a document's baseUrl on it needs no workspace trust.
  const runtime = createRuntime({ workspace: dir, store, env: { OPENAI_BASE_URL: baseUrl } });
  try {
    const result = await runtime.runCrew(CrewDocumentSchema.parse(doc));
    if (result.status !== 'completed') throw new Error(`Crewdeck run ${result.status}: ${result.error?.message}`);
    return result.output;
  } finally {
    store.close();
  }
}

export async function sequential(baseUrl: string, tasks: number, withTools = false): Promise<string> {
  // Each task's prompt names the task only; Crewdeck adds the previous task's output as its context.
  return runDoc(baseUrl, {
    kind: 'crew',
    version: 1,
    id: 'bench',
    name: 'Bench',
    process: 'sequential',
    agents: [{ id: 'analyst', role: 'Analyst', goal: SYSTEM, backstory: 'Careful with numbers.', llm: llm(baseUrl), tools: withTools ? [{ tool: 'calculator' }] : [] }],
    tasks: Array.from({ length: tasks }, (_, i) => ({
      id: `t${i + 1}`,
      description: taskPrompt(i, '', withTools),
      expectedOutput: 'One line.',
      agentId: 'analyst',
      ...(i > 0 ? { context: [`t${i}`] } : {}),
    })),
  });
}

export async function delegation(baseUrl: string, tasks: number): Promise<string> {
  return runDoc(baseUrl, {
    kind: 'crew',
    version: 1,
    id: 'bench-delegation',
    name: 'Bench delegation',
    process: 'hierarchical',
    manager: { llm: llm(baseUrl) },
    agents: [{ id: 'worker', role: 'Worker', goal: SYSTEM, backstory: 'Does the work it is given.', llm: llm(baseUrl) }],
    tasks: Array.from({ length: tasks }, (_, i) => ({ id: `d${i + 1}`, description: delegationPrompt(i), expectedOutput: 'One line.', agentId: 'worker', context: [] })),
  });
}

export async function parallel(baseUrl: string, count: number): Promise<string> {
  return runDoc(baseUrl, {
    kind: 'crew',
    version: 1,
    id: 'bench-parallel',
    name: 'Bench parallel',
    process: 'sequential',
    agents: [{ id: 'analyst', role: 'Analyst', goal: SYSTEM, backstory: 'Careful with numbers.', llm: llm(baseUrl) }],
    tasks: Array.from({ length: count }, (_, i) => ({ id: `p${i + 1}`, description: parallelPrompt(i), expectedOutput: 'One line.', agentId: 'analyst', async: true, context: [] })),
  });
}
