import { AgentTimeout, BudgetReached, errorMessage, errorName } from '../errors';
import type { Span } from '../events/span';
import { HumanInputPending } from '../human/humanPause';
import type { AgentExecution, AgentResult } from './agentExecution';
import { AgentLoop } from './agentLoop';
import { executionSignal } from './executionSignal';
import type { RunContext } from './runContext';

/** Runs one agent on one task: the model/tool loop, forced answer, summarisation and human review. */
export async function executeAgent(ctx: RunContext, parent: Span, exec: AgentExecution): Promise<AgentResult> {
  const span = parent.child();
  const started = performance.now();
  const { signal, dispose, timedOut } = executionSignal(ctx.signal, exec.agent.maxExecutionTimeMs);
  // A run resumed after this agent paused for a person: it goes on from where it stood.
  const resumed = exec.delegatedBy === undefined ? ctx.human.resumeAgent?.(exec.taskId, exec.agent.role) : undefined;
  const run = new AgentLoop(ctx, span, exec, signal, resumed);
  span.emit({
    type: 'agent.started',
    agentId: exec.agent.id,
    role: exec.agent.role,
    taskId: exec.taskId,
    tools: exec.tools.map((u) => u.tool.name),
    model: `${exec.model.provider}:${exec.model.model}`,
    mode: run.mode,
    delegatedBy: exec.delegatedBy,
    ...(exec.suggestions ? { suggestions: exec.suggestions } : {}),
  });
  try {
    const output = await run.execute();
    const durationMs = Math.round(performance.now() - started);
    const readAs = run.answerReadAs;
    span.emit({ type: 'agent.completed', role: exec.agent.role, output, iterations: run.iterations, tokenUsage: run.usage, durationMs, ...(readAs.length ? { readAs } : {}) });
    return { output, iterations: run.iterations, usage: run.usage };
  } catch (caught) {
    // Whatever was interrupted (a model call, a tool, a human), a fired timer means the agent timed out.
    const error = timedOut() && !ctx.signal.aborted ? new AgentTimeout(exec.agent.role, exec.agent.maxExecutionTimeMs ?? 0) : caught;
    if (error instanceof BudgetReached || error instanceof HumanInputPending) {
      span.emit({ type: 'agent.paused', role: exec.agent.role, reason: error instanceof BudgetReached ? 'budget' : 'human', message: error.message, durationMs: Math.round(performance.now() - started) });
      throw error;
    }
    span.emit({
      type: 'agent.failed',
      role: exec.agent.role,
      error: errorMessage(error),
      errorName: errorName(error),
      durationMs: Math.round(performance.now() - started),
    });
    throw error;
  } finally {
    dispose();
  }
}
