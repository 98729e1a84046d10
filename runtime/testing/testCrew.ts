import type { Conversation, CrewDocument, Task } from '../../shared/model/crew';
import type { RuntimeEvent } from '../../shared/events';
import type { CheckResult, TestReport, TestResult } from '../../shared/training';
import { emptyUsage, type TokenUsage } from '../../shared/usage';
import { checkDeterministic } from '../crew/guardrails';
import type { CrewRunResult } from '../crew/kickoff';
import { errorMessage } from '../errors';
import type { ChatModel } from '../llm/chatModel';
import { newRunId } from '../runId';
import { askEvaluatorJson, type EvaluatorCall } from '../training/evaluatorJson';
import { nextIterationRun, openCrewSession, runIteration, type CrewSession, type CrewSessionRequest } from '../training/crewSession';
import { summariseTest } from './testReport';
import type { TestStore } from './testStore';
import { TaskScoreSchema } from './taskScore';
import { testConversation } from './testConversation';

export const MAX_TEST_ITERATIONS = 50;

export interface TestRequest extends CrewSessionRequest {
  store: TestStore;
  /** A model profile that scores every task instead of the agents' own models. */
  evalModel?: string;
  testId?: string;
}

export interface TestCrewResult {
  testId: string;
  report: TestReport;
  /** The test's own run: its `test.*` events and the evaluator's calls, whose tokens are `evaluatorUsage`. */
  evaluationRunId: string;
  evaluatorUsage: TokenUsage;
}

const SYSTEM =
  'You score how well an answer to a task meets the task\'s expected output, from 1 (does not meet it at all) ' +
  'to 10 (meets it fully). Judge only against the expected output. Reply with JSON only: {"score": <1-10>, "reason": "<one sentence>"}';

export function newTestId(now: number): string {
  return newRunId(now).replace(/^run_/, 'test_');
}

/** The crew as a test runs it: nobody is asked to review (the runs are unattended). */
export function testedCrew(doc: CrewDocument): CrewDocument {
  return { ...doc, tasks: doc.tasks.map((t) => ({ ...t, humanInput: false })) };
}

/**
 * Tests a crew (SPEC §6): N runs (marked as test runs in `run.started`); after each, the evaluator scores
 * every completed task 1–10 against its expected output, and the task's deterministic checks (if it
 * declares any) give a score of their own: passed / total × 10, whatever the evaluator thinks. A failed
 * run is a result too (its tasks score nothing); the test goes on. Results are stored as they come.
 */
export async function testCrew(req: TestRequest): Promise<TestCrewResult> {
  const { store } = req;
  const session = openCrewSession(req, { of: 'test', store, maxIterations: MAX_TEST_ITERATIONS, id: req.testId, newId: newTestId });
  const { id: testId, span, run, runIds } = session;
  span.emit({ type: 'test.started', sessionId: testId, crewId: req.doc.id, iterations: req.iterations });
  const record = (row: TestResult) => {
    store.addResult(testId, row);
    span.emit({
      type: 'test.evaluated',
      sessionId: testId,
      iteration: row.iteration,
      taskId: row.taskId,
      status: row.status,
      ...(row.score !== undefined ? { score: row.score } : {}),
      ...(row.checkScore !== undefined ? { checkScore: row.checkScore } : {}),
      ...(row.reason !== undefined ? { reason: row.reason } : {}),
    });
  };
  try {
    const doc = testedCrew(req.doc);
    for (let iteration = 1; iteration <= req.iterations; iteration++) {
      const runId = nextIterationRun(session, store);
      span.emit({ type: 'test.iteration.started', sessionId: testId, iteration, iterations: req.iterations, runId });
      const seen = new TaskEvents();
      const result = await runIteration(req, doc, { runId, kind: 'test', sessionId: testId, iteration }, (event) => seen.handle(event));
      if (result.status === 'cancelled') throw new Error(`test run ${iteration} was cancelled`);
      await scoreTasks(req, session, { iteration, runId, result, seen }, record);
      // Kept conversations (the chat pane's test cases) after the tasks: each replayed and scored.
      for (const [k, conversation] of (req.doc.conversations ?? []).entries()) record(await scoreConversation(req, session, conversation, iteration, k));
    }
    store.setStatus(testId, 'completed');
    span.emit({ type: 'test.completed', sessionId: testId, runIds, tokenUsage: run.usage() });
    const end = run.finish({ kind: 'completed', output: `${runIds.length} test run(s) scored` });
    const stored = store.session(testId)!;
    return { testId, report: summariseTest(stored, store.results(testId)), evaluationRunId: run.runId, evaluatorUsage: end.tokenUsage };
  } catch (error) {
    store.setStatus(testId, 'failed', errorMessage(error));
    span.emit({ type: 'test.failed', sessionId: testId, error: errorMessage(error) });
    run.finish({ kind: 'error', error });
    throw error;
  } finally {
    run.close();
  }
}

/** One iteration's crew run, as its events told it. */
interface IterationRun {
  iteration: number;
  runId: string;
  result: CrewRunResult;
  seen: TaskEvents;
}

/**
 * A row per task of the crew, in order, each recorded as soon as it is made: a completed task scored
 * (by the evaluator and by its checks), the others as they ended.
 */
async function scoreTasks(req: TestRequest, session: CrewSession, { iteration, runId, result, seen }: IterationRun, record: (row: TestResult) => void): Promise<void> {
  const { interpolated } = session;
  const evaluatorCall = { ctx: session.run.context(), parent: session.span };
  for (const [index, task] of interpolated.tasks.entries()) {
    const outcome = seen.tasks.get(task.id);
    const base = {
      iteration,
      runId,
      taskId: task.id,
      index,
      role: outcome?.role ?? interpolated.agents.find((a) => a.id === task.agentId)?.role ?? '',
      durationMs: outcome?.durationMs ?? 0,
      tokenUsage: result.usageByTask[task.id] ?? outcome?.usage ?? emptyUsage(),
    };
    if (outcome?.status === 'completed') {
      const checks = runChecks(task, outcome.output);
      // A failing evaluator leaves this score out (and says why); the checks still count.
      const scored = await scoreTask(evaluatorCall, session.evaluator(outcome.role), task, outcome.output, iteration).catch((error: unknown) => {
        if (req.signal?.aborted) throw error;
        return { failure: errorMessage(error) };
      });
      record({
        ...base,
        status: 'completed',
        ...('value' in scored ? { score: scored.value.score, reason: scored.value.reason } : { reason: `the evaluator could not score it: ${scored.failure}` }),
        ...(checks.length > 0 ? { checkScore: checkScore(checks) } : {}),
        checks,
      });
    } else {
      record({
        ...base,
        status: outcome?.status === 'skipped' ? 'skipped' : 'failed',
        reason: outcome?.reason ?? (result.error ? `the run failed before this task: ${result.error.message}` : 'the task did not run'),
        checks: [],
      });
    }
  }
}

/** The k-th kept conversation of the crew, replayed and scored (its row after the tasks'). */
function scoreConversation(req: TestRequest, session: CrewSession, conversation: Conversation, iteration: number, k: number): Promise<TestResult> {
  return testConversation({
    doc: req.doc,
    conversation,
    iteration,
    index: session.interpolated.tasks.length + k,
    sessionId: session.id,
    runtime: req.runtime,
    evaluator: session.evaluator,
    evaluatorCall: { ctx: session.run.context(), parent: session.span },
    run: { inputs: req.inputs, documentPath: req.documentPath, signal: req.signal, onEvent: req.onEvent },
    now: session.now,
  });
}

function runChecks(task: Task, output: string): CheckResult[] {
  return (task.tests?.checks ?? []).map((check) => {
    const verdict = checkDeterministic(check, output);
    return verdict.pass ? { type: check.type, pass: true } : { type: check.type, pass: false, reason: verdict.reason };
  });
}

/** Passed checks / all checks × 10, rounded to one decimal. */
export function checkScore(checks: CheckResult[]): number {
  return Math.round((checks.filter((c) => c.pass).length / checks.length) * 100) / 10;
}

function scoreTask(run: Pick<EvaluatorCall, 'ctx' | 'parent'>, model: ChatModel, task: Task, output: string, iteration: number) {
  return askEvaluatorJson(
    {
      ...run,
      model,
      subject: `task "${task.id}", iteration ${iteration}`,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: `Task: ${task.description}\n\nExpected output: ${task.expectedOutput}\n\nAnswer to score:\n${output}` },
      ],
    },
    TaskScoreSchema,
  );
}

/** What became of each task in one run, from its events. */
class TaskEvents {
  readonly tasks = new Map<string, { status: 'completed' | 'failed' | 'skipped'; role: string; output: string; reason?: string; durationMs: number; usage?: TokenUsage }>();
  private readonly roles = new Map<string, string>();

  handle(event: RuntimeEvent): void {
    if (event.type === 'task.started') this.roles.set(event.taskId, event.agentRole);
    else if (event.type === 'task.completed') {
      this.tasks.set(event.taskId, { status: 'completed', role: event.agentRole, output: event.raw, durationMs: event.durationMs, usage: event.tokenUsage });
    } else if (event.type === 'task.failed') {
      this.tasks.set(event.taskId, { status: 'failed', role: event.agentRole, output: '', reason: event.error, durationMs: event.durationMs });
    } else if (event.type === 'task.skipped') {
      this.tasks.set(event.taskId, { status: 'skipped', role: this.roles.get(event.taskId) ?? '', output: '', reason: event.reason, durationMs: 0 });
    }
  }
}
