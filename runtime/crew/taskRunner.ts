import { redactKnown } from '../redactSecrets';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Task } from '../../shared/model/crew';
import type { ModelRef } from '../../shared/model/modelRef';
import type { ReadAs, TaskOutputRecord } from '../../shared/events';
import type { TokenUsage } from '../../shared/usage';
import { executeAgent } from '../agent/executor';
import { guardrailRetryNote, taskPrompt, trainedInstructions } from '../agent/prompt';
import { recallForTask } from '../memory/recallForTask';
import { retrieveKnowledgeForTask } from '../knowledge/runKnowledge';
import type { RunContext } from '../agent/runContext';
import { BudgetReached, errorMessage, errorName, GuardrailExhausted } from '../errors';
import { HumanInputPending } from '../human/humanPause';
import type { Span } from '../events/span';
import type { ChatModel } from '../llm/chatModel';
import { assertWritable } from '../tools/protectedFiles';
import { resolveInWorkspace } from '../tools/workspacePath';
import type { ToolUse } from '../tools/policyGate';
import { checkGuardrail, type GuardrailScope } from './guardrails';
import { convertReplyToJson, type ConversionScope } from './outputConversion';
import { readJsonMatching } from '../reading/jsonValue';
import type { CrewMember } from './roster';
import { withinEmbeddingSpan } from '../memory/embeddingScope';

export interface TaskAssignment {
  task: Task;
  index: number;
  /** Who executes it: the assigned agent, or the manager in a hierarchical crew. */
  performer: CrewMember;
  tools: ToolUse[];
  context: string;
  /** Resolves a judge model for `llm` guardrails. */
  judge: (ref: ModelRef | undefined) => ChatModel;
}

export interface CompletedTask extends TaskOutputRecord {
  tokenUsage: TokenUsage;
}

/**
 * Runs one task: the agent, then the output checks and guardrails (retrying with the failure
 * message and the rejected output), then the output file, then `task.completed`.
 */
export async function runTask(ctx: RunContext, parent: Span, a: TaskAssignment): Promise<CompletedTask> {
  const { task, performer } = a;
  const span = parent.child();
  const started = performance.now();
  const role = performer.agent.role;
  span.emit({
    type: 'task.started',
    taskId: task.id,
    taskName: task.name,
    index: a.index,
    agentRole: role,
    description: task.description,
    expectedOutput: task.expectedOutput,
    async: task.async,
    context: a.context,
  });
  try {
    const { raw, json, readAs } = await withinEmbeddingSpan(span, { taskId: task.id, agentRole: role }, () => produceAcceptedOutput(ctx, span, a));
    if (task.outputFile) await writeOutputFile(ctx.workspace, task.outputFile, raw);
    const tokenUsage = ctx.meter.task(task.id);
    span.emit({
      type: 'task.completed',
      taskId: task.id,
      agentRole: role,
      raw,
      json,
      tokenUsage,
      durationMs: Math.round(performance.now() - started),
      outputFile: task.outputFile,
      ...(readAs?.length ? { readAs } : {}),
    });
    return { taskId: task.id, agentRole: role, raw, json, tokenUsage };
  } catch (error) {
    if (error instanceof BudgetReached || error instanceof HumanInputPending) {
      // Not a failure: the run pauses. At its budget this task runs again from its start; for a person,
      // its agent goes on from where it asked (humanPause.ts).
      const why = error instanceof BudgetReached ? `the task paused at the run's budget: ${error.message}` : `the task paused: ${error.message}`;
      ctx.memory?.discardUnstaged(span, task.id, role, why);
      span.emit({ type: 'task.paused', taskId: task.id, agentRole: role, reason: error instanceof BudgetReached ? 'budget' : 'human', message: error.message, durationMs: Math.round(performance.now() - started) });
      throw error;
    }
    ctx.memory?.discardUnstaged(span, task.id, role, `the task failed: ${errorMessage(error)}`);
    span.emit({
      type: 'task.failed',
      taskId: task.id,
      agentRole: role,
      error: errorMessage(error),
      errorName: errorName(error),
      durationMs: Math.round(performance.now() - started),
    });
    throw error;
  }
}

async function produceAcceptedOutput(ctx: RunContext, span: Span, a: TaskAssignment): Promise<{ raw: string; json?: unknown; readAs?: ReadAs[] }> {
  const { task, performer } = a;
  const trained = ctx.suggestions?.get(performer.agent.role);
  const basePrompt = taskPrompt({
    description: task.description,
    expectedOutput: task.expectedOutput,
    outputSchema: task.output?.schema,
    outputFormat: task.output?.format,
    context: a.context,
    extras: [
      ...(await recallForTask(ctx, span, task, performer.agent)),
      ...(await retrieveKnowledgeForTask(ctx, span, task, performer.agent)),
      ...(trained ? [trainedInstructions(trained.suggestions)] : []),
    ],
  });
  const scope: GuardrailScope = { ctx, span, taskId: task.id, agentRole: performer.agent.role, judge: a.judge };
  const memory = performer.agent.memory === false ? undefined : ctx.memory;
  let retryNote: string | undefined;
  for (let attempt = 1; ; attempt++) {
    const result = await executeAgent(ctx, span, {
      agent: performer.settings,
      model: performer.model,
      tools: a.tools,
      taskId: task.id,
      prompt: retryNote ? `${basePrompt}\n\n${retryNote}` : basePrompt,
      humanInput: task.humanInput,
      reviewPrompt: task.description,
      suggestions: trained ? { version: trained.version, count: trained.suggestions.length } : undefined,
    });
    const staged = memory?.stage(span, {
      attempt,
      extract: true,
      input: { taskId: task.id, agentRole: performer.agent.role, description: task.description, expectedOutput: task.expectedOutput, output: result.output },
    });
    let verdict: Awaited<ReturnType<typeof judgeAttempt>>;
    try {
      verdict = await judgeAttempt(task, result.output, attempt, span, scope, performer.model);
    } catch (error) {
      await staged?.reject(`the attempt could not be checked: ${errorMessage(error)}`);
      throw error;
    }
    if (verdict.failure === undefined) {
      await staged?.accept(verdict.raw);
      return { raw: verdict.raw, json: verdict.json, readAs: verdict.readAs };
    }
    const { failure, raw } = verdict;
    await staged?.reject(`attempt ${attempt} was rejected: ${failure}`);
    if (attempt > task.guardrailMaxRetries) throw new GuardrailExhausted(task.id, attempt, failure);
    span.emit({ type: 'task.retrying', taskId: task.id, attempt: attempt + 1, maxRetries: task.guardrailMaxRetries, reason: failure, rejectedOutput: raw });
    retryNote = guardrailRetryNote(failure, raw);
  }
}

/** The output checks and guardrails of one attempt, in order; the first failure stops them. */
async function judgeAttempt(
  task: Task,
  output: string,
  attempt: number,
  span: Span,
  scope: GuardrailScope,
  model: ChatModel,
): Promise<{ raw: string; json?: unknown; readAs?: ReadAs[]; failure?: string }> {
  let raw = output;
  let json: unknown;
  let readAs: ReadAs[] | undefined;
  let failure: string | undefined;

  if (task.output?.format === 'json') {
    const checked = await readStructuredOutput(raw, task.output.schema, { ...scope, span, model });
    if (checked.ok) {
      raw = checked.raw;
      json = checked.value;
      readAs = checked.readAs;
    }
    failure = checked.ok ? undefined : checked.reason;
    if (failure) {
      const check = span.child();
      check.emit({ type: 'guardrail.started', taskId: task.id, index: -1, guardrailType: 'output_json', attempt });
      check.emit({ type: 'guardrail.failed', taskId: task.id, index: -1, guardrailType: 'output_json', attempt, reason: failure });
    }
  }
  for (let i = 0; failure === undefined && i < task.guardrails.length; i++) {
    const guardrail = task.guardrails[i]!;
    const gSpan = span.child();
    gSpan.emit({ type: 'guardrail.started', taskId: task.id, index: i, guardrailType: guardrail.type, attempt });
    let verdict: Awaited<ReturnType<typeof checkGuardrail>>;
    try {
      verdict = await checkGuardrail(guardrail, raw, { ...scope, span: gSpan });
    } catch (error) {
      // The check itself broke (e.g. its judge model failed): close the span, then fail the task.
      gSpan.emit({ type: 'guardrail.failed', taskId: task.id, index: i, guardrailType: guardrail.type, attempt, reason: `could not be checked: ${errorMessage(error)}` });
      throw error;
    }
    if (verdict.pass) {
      if (verdict.replacement !== undefined) raw = verdict.replacement;
      gSpan.emit({ type: 'guardrail.passed', taskId: task.id, index: i, guardrailType: guardrail.type, attempt, replaced: verdict.replacement !== undefined, ...(verdict.readAs ? { readAs: verdict.readAs } : {}) });
    } else {
      failure = verdict.reason;
      gSpan.emit({ type: 'guardrail.failed', taskId: task.id, index: i, guardrailType: guardrail.type, attempt, reason: failure, ...(verdict.readAs ? { readAs: verdict.readAs } : {}) });
    }
  }
  return { raw, json, readAs, failure };
}

/**
 * A JSON-output task's reply as JSON matching its schema: read as it is, else converted by one call to the
 * agent's model (outputConversion.ts). Its output is then the conversion's JSON. When neither reads, the
 * reason is the reply's: that is what the agent is told on its retry.
 */
async function readStructuredOutput(
  reply: string,
  schema: Record<string, unknown> | undefined,
  scope: ConversionScope,
): Promise<{ ok: true; raw: string; value: unknown; readAs: ReadAs[] } | { ok: false; reason: string }> {
  const read = readJsonMatching(reply, schema);
  if (read.ok) return { ok: true, raw: reply, value: read.value, readAs: read.readAs };
  const converted = await convertReplyToJson(scope, reply, schema);
  return converted.ok ? converted : { ok: false, reason: read.reason };
}

/**
 * Writes a task's (or a flow method's) output to its workspace file. A path leading outside is refused,
 * and so are protected files (settings, documents, .git/, .crewdeck/): a flow method's outputFile is a
 * template filled from state and input, which a model wrote.
 */
export async function writeOutputFile(workspace: string, path: string, content: string): Promise<void> {
  const target = resolveInWorkspace(workspace, path);
  assertWritable(workspace, target);
  await mkdir(dirname(target), { recursive: true });
  // A key a model or tool echoed never reaches the file, in any encoding.
  await writeFile(target, redactKnown(content), 'utf8');
}
