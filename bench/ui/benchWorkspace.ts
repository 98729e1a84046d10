import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RuntimeEvent } from '../../shared/events';
import { CrewDocumentSchema, type CrewDocument, type CrewDocumentInput } from '../../shared/model/crew';
import { createRuntime } from '../../runtime/runtime';
import { workspaceDatabasePath } from '../../runtime/store/database';
import { SqliteRunStore } from '../../runtime/store/sqliteRunStore';
import { hierarchicalCrew } from '../crews';

/** The workspace the UI benchmark serves: one recorded long run, and a big crew for the canvas. */
export interface BenchWorkspace {
  dir: string;
  run: RecordedRun;
  canvas: { path: string; agents: number; tasks: number; contextEdges: number };
}

export interface RecordedRun {
  runId: string;
  /** Workspace-relative path of the crew file the run was started from. */
  documentPath: string;
  tasks: number;
  events: number;
  /** Bytes of the stored events as JSON (what `runs.events` sends, before the envelope). */
  eventJsonBytes: number;
  /** Size of the SQLite database after the run (WAL checkpointed by close). */
  databaseBytes: number;
  recordMs: number;
  eventTypes: Record<string, number>;
}

export const TRACE_CREW_FILE = 'bench-trace.crew.json';
export const CANVAS_CREW_FILE = 'bench-canvas.crew.json';
export const MIN_TRACE_EVENTS = 10_000;

/**
 * The crew whose run the trace panel opens: `hierarchicalCrew(tasks)` from the runtime benchmark (a
 * built-in manager delegates every task; ≈19.3 events per task), with each task's context narrowed to
 * the task before it. With the default context (all earlier outputs) the prompts, and so the stored
 * `llm.started` events, grow with the task index: a 520-task run stores ~49 MB instead of ~6 MB of
 * event JSON, which measures a pathological document rather than the trace panel.
 */
export function traceCrew(tasks: number): CrewDocument {
  const base = hierarchicalCrew(tasks).doc;
  return CrewDocumentSchema.parse({
    ...base,
    id: `bench-trace-${tasks}`,
    name: `Bench: trace, ${tasks} tasks`,
    tasks: base.tasks.map((t, i) => (i === 0 ? t : { ...t, context: [base.tasks[i - 1]!.id] })),
  });
}

/** Runs the trace crew through the real runtime into the workspace's own run store. */
export async function recordRun(dir: string, tasks: number): Promise<RecordedRun> {
  const doc = traceCrew(tasks);
  const path = join(dir, TRACE_CREW_FILE);
  writeFileSync(path, `${JSON.stringify(doc, null, 2)}\n`);
  const store = SqliteRunStore.open(dir);
  let stored: RuntimeEvent[];
  let runId: string;
  let recordMs: number;
  try {
    const runtime = createRuntime({ workspace: dir, store });
    const t0 = performance.now();
    const result = await runtime.runCrew(doc, { documentPath: path });
    recordMs = performance.now() - t0;
    if (result.status !== 'completed') throw new Error(`the recorded run ${result.status}: ${result.error?.message}`);
    runId = result.runId;
    stored = store.events(runId);
  } finally {
    store.close();
  }
  if (stored.length < MIN_TRACE_EVENTS) throw new Error(`the recorded run has ${stored.length} events, fewer than ${MIN_TRACE_EVENTS}: record more tasks`);
  const eventTypes: Record<string, number> = {};
  let eventJsonBytes = 0;
  for (const e of stored) {
    eventTypes[e.type] = (eventTypes[e.type] ?? 0) + 1;
    eventJsonBytes += Buffer.byteLength(JSON.stringify(e));
  }
  if (eventTypes['task.completed'] !== tasks) throw new Error(`the recorded run completed ${eventTypes['task.completed']} tasks, expected ${tasks}`);
  return {
    runId,
    documentPath: TRACE_CREW_FILE,
    tasks,
    events: stored.length,
    eventJsonBytes,
    databaseBytes: statSync(workspaceDatabasePath(dir)).size,
    recordMs,
    eventTypes,
  };
}

export interface CanvasCrewShape {
  agents: number;
  tasks: number;
  /** Grid columns; the crew is laid out agent, its tasks, next agent… in reading order. */
  columns: number;
}

const CELL = { width: 320, height: 170 };

/**
 * A big crew for the canvas: `agents` agents, `tasks` tasks assigned round-robin (each agent's tasks
 * follow it in the grid), every third task with an explicit context on the task two before it, and a
 * saved layout for every node on a grid (so the auto-layout never runs).
 */
export function canvasCrew(shape: CanvasCrewShape): { input: CrewDocumentInput; contextEdges: number } {
  const pad = (n: number) => String(n).padStart(3, '0');
  const agents = Array.from({ length: shape.agents }, (_, i) => ({
    id: `a${pad(i + 1)}`,
    role: `Specialist ${i + 1}`,
    goal: `Handle the work of area ${i + 1}`,
    backstory: 'Careful and brief.',
    llm: { provider: 'scripted' as const, model: 'bench-canvas', script: { default: 'Done.' } },
    tools: i % 3 === 0 ? [{ tool: 'calculator' }] : [],
  }));
  let contextEdges = 0;
  const tasks = Array.from({ length: shape.tasks }, (_, i) => {
    const context = i >= 2 && i % 3 === 2 ? [`t${pad(i - 1)}`] : undefined;
    if (context) contextEdges++;
    return {
      id: `t${pad(i + 1)}`,
      name: `Step ${i + 1}`,
      description: `Do step ${i + 1} of the plan and report what changed.`,
      expectedOutput: 'A short report.',
      agentId: agents[i % shape.agents]!.id,
      ...(context ? { context } : {}),
      ...(i % 5 === 0 ? { guardrails: [{ type: 'length' as const, min: 5 }] } : {}),
    };
  });
  // Reading order: each agent, then the tasks assigned to it.
  const order: string[] = [];
  agents.forEach((a, ai) => {
    order.push(`agent:${a.id}`);
    tasks.forEach((t, ti) => {
      if (ti % shape.agents === ai) order.push(`task:${t.id}`);
    });
  });
  const layout = Object.fromEntries(
    order.map((nodeId, k) => [nodeId, { x: (k % shape.columns) * CELL.width, y: Math.floor(k / shape.columns) * CELL.height }]),
  );
  const input: CrewDocumentInput = {
    kind: 'crew',
    version: 1,
    id: 'bench-canvas',
    name: `Bench: canvas, ${shape.agents + shape.tasks} nodes`,
    process: 'sequential',
    agents,
    tasks,
    layout,
  };
  const parsed = CrewDocumentSchema.safeParse(input);
  if (!parsed.success) throw new Error(`the canvas crew is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return { input, contextEdges };
}

/** A fresh temporary workspace with the recorded run and the canvas crew. */
export async function prepareBenchWorkspace(options: { traceTasks: number; canvas: CanvasCrewShape }): Promise<BenchWorkspace> {
  const dir = mkdtempSync(join(tmpdir(), 'crewdeck-bench-ui-'));
  const run = await recordRun(dir, options.traceTasks);
  const { input, contextEdges } = canvasCrew(options.canvas);
  writeFileSync(join(dir, CANVAS_CREW_FILE), `${JSON.stringify(input, null, 2)}\n`);
  return { dir, run, canvas: { path: CANVAS_CREW_FILE, agents: options.canvas.agents, tasks: options.canvas.tasks, contextEdges } };
}
