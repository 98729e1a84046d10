/**
 * The calculator's first call as a run's trace shows it: a fresh process (nothing warmed up) runs a
 * 2-task crew whose first task calls the calculator right after its first model call (`6 * 7`, plain
 * arithmetic) and whose second task calls it for a mathjs function (`sqrt(2) * 3`), which needs the
 * calculator's child process. The figures are the `durationMs` of the two `tool.completed` events.
 *
 *   node --import tsx bench/calculatorFirstCall.ts      (prints the figures as JSON)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface FirstCallFigures {
  /** Plain arithmetic right after the run's first model call (answered in the host). */
  plainFirstMs: number;
  /** The run's first call that needs mathjs (waits for the child if it is not ready yet). */
  mathjsFirstMs: number;
  /** Run start → the child's ready, as far as the run saw it: the second call's completion time. */
  runWallMs: number;
}

export const FIRST_CALL_EXPRESSIONS = ['6 * 7', 'sqrt(2) * 3'] as const;

async function measureHere(): Promise<FirstCallFigures> {
  const { CrewDocumentSchema } = await import('../shared/model/crew');
  const { createRuntime } = await import('../runtime/runtime');
  const { SqliteRunStore } = await import('../runtime/store/sqliteRunStore');
  const dir = mkdtempSync(join(tmpdir(), 'crewdeck-bench-calc-'));
  const store = SqliteRunStore.open(dir);
  try {
    const doc = CrewDocumentSchema.parse({
      kind: 'crew',
      version: 1,
      id: 'calc-first',
      name: 'Calculator first call',
      process: 'sequential',
      agents: [
        {
          id: 'researcher',
          role: 'Researcher',
          goal: 'Compute the figures',
          backstory: 'Checks every number with the calculator.',
          tools: [{ tool: 'calculator' }],
          llm: {
            provider: 'scripted',
            model: 'bench-calc',
            script: {
              rules: [
                { when: { lastRole: 'user' }, reply: FIRST_CALL_EXPRESSIONS.map((expression) => ({ content: '', toolCalls: [{ name: 'calculator', arguments: { expression } }] })) },
                { when: { lastRole: 'tool' }, reply: 'The figure is the calculator result above.' },
              ],
            },
          },
        },
      ],
      tasks: FIRST_CALL_EXPRESSIONS.map((_, i) => ({ id: `t${i + 1}`, description: `Compute figure ${i + 1} with the calculator.`, expectedOutput: 'The figure.', agentId: 'researcher', context: [] })),
    });
    const runtime = createRuntime({ workspace: dir, store });
    const t0 = performance.now();
    const result = await runtime.runCrew(doc);
    const runWallMs = performance.now() - t0;
    if (result.status !== 'completed') throw new Error(`calculator first-call run ${result.status}: ${result.error?.message}`);
    const completed = store.events(result.runId).filter((e) => e.type === 'tool.completed');
    if (completed.length !== 2) throw new Error(`expected 2 calculator calls, the trace has ${completed.length}`);
    const [plain, mathjs] = completed.map((e) => (e.type === 'tool.completed' ? e.durationMs : NaN));
    return { plainFirstMs: plain!, mathjsFirstMs: mathjs!, runWallMs };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the measurement in a fresh process (the calculator must not have been started by anything else). */
export function measureFirstCalculatorCall(): Promise<FirstCallFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => {
      try {
        if (code !== 0) throw new Error(`bench/calculatorFirstCall.ts exited ${code}`);
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as FirstCallFigures);
      } catch (error) {
        reject(error);
      }
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figures = await measureHere();
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  process.exit(0);
}
