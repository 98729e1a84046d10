import type { ReadAs, ToolApprovalDecision } from '../../shared/events';
import type { Span } from '../events/span';
import type { ToolOutcome } from '../tools/policyGate';
import { resolveToolName } from '../reading/toolName';
import type { AgentExecution } from './agentExecution';
import type { RunContext } from './runContext';
import { LastToolCall, REPEATED_CALL_NOTE } from './repeatedCall';

/** What a tool call gives the agent: the observation, and whether it is the final answer (resultAsAnswer). */
export interface ToolCallOutcome {
  observation: string;
  resultAsAnswer: boolean;
}

/** An agent's tool calls: the tool found by name, the call made through the policy gate, and traced. */
export class AgentToolCalls {
  /** The last ReAct call that gave a result: the same call next is refused (repeatedCall.ts). */
  private readonly lastCall = new LastToolCall();

  constructor(
    private readonly ctx: RunContext,
    private readonly span: Span,
    private readonly exec: AgentExecution,
    private readonly signal: AbortSignal,
  ) {}

  /** The offered tool a model named (`**`, quotes, case and CrewAI's delegation names tolerated). */
  find(name: string, args: Record<string, unknown>, fuzzy: boolean) {
    return resolveToolName(name, args, this.exec.tools, (u) => u.tool.name, { fuzzy });
  }

  /**
   * One tool call through the policy gate. `react`: a ReAct step's call, refused without running when it
   * repeats the call just before it (repeatedCall.ts; CrewAI checks this on its ReAct path only).
   */
  async use(
    name: string,
    args: Record<string, unknown>,
    callId: string,
    { readAs = [], decision, react = false }: { readAs?: ReadAs[]; decision?: ToolApprovalDecision; react?: boolean } = {},
  ): Promise<ToolCallOutcome> {
    const found = this.find(name, args, true);
    if (found === undefined) {
      this.lastCall.forget();
      const available = this.exec.tools.map((u) => u.tool.name).join(', ');
      const problem = available === '' ? `tool "${name}" does not exist: you have no tools. Give your final answer.` : `tool "${name}" does not exist. Available tools: ${available}`;
      return this.failedCall(name, args, callId, problem);
    }
    if (react && this.lastCall.repeats(found.tool.tool.name, found.args)) return this.refusedRepeat(found.tool.tool.name, found.args, callId);
    const outcome = await this.gateCall(found, callId, [...readAs, ...found.readAs], decision);
    if (outcome.status === 'completed' || outcome.status === 'cached') this.lastCall.remember(found.tool.tool.name, found.args);
    else this.lastCall.forget();
    return outcome;
  }

  private gateCall(found: NonNullable<ReturnType<AgentToolCalls['find']>>, callId: string, how: ReadAs[], decision: ToolApprovalDecision | undefined): Promise<ToolOutcome> {
    return this.ctx.gate.call(
      {
        use: found.tool,
        args: found.args,
        callId,
        agentRole: this.exec.agent.role,
        taskId: this.exec.taskId,
        cache: this.exec.agent.cache,
        memory: this.ctx.memory,
        ...(how.length ? { readAs: how } : {}),
        ...(decision ? { decision } : {}),
      },
      this.span,
      this.signal,
    );
  }

  /** The same call as the one just before: traced as a blocked tool call, answered with CrewAI's note. */
  private refusedRepeat(tool: string, args: unknown, callId: string): ToolCallOutcome {
    const span = this.span.child();
    span.emit({ type: 'tool.started', tool, args, agentRole: this.exec.agent.role, callId });
    span.emit({ type: 'tool.blocked', tool, reason: 'the same tool with the same input as the call just before', by: 'repeated_call' });
    return { observation: REPEATED_CALL_NOTE, resultAsAnswer: false };
  }

  /** A call that never reached a tool (unknown name, unreadable arguments) still shows in the trace. */
  async failedCall(name: string, args: unknown, callId: string, problem: string): Promise<ToolCallOutcome> {
    const span = this.span.child();
    span.emit({ type: 'tool.started', tool: name, args, agentRole: this.exec.agent.role, callId });
    span.emit({ type: 'tool.failed', tool: name, error: problem, durationMs: 0 });
    return { observation: `Error: ${problem}`, resultAsAnswer: false };
  }
}
