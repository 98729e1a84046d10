import { randomUUID } from 'node:crypto';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ReadAs, ToolApprovalDecision } from '../../shared/events';
import type { Span } from '../events/span';
import type { HumanChannel } from '../human/humanChannel';
import { HumanInputPending } from '../human/humanPause';
import { flatObjectCheck, type SurelyValid } from '../validation/flatObjectSchema';
import { compileSchema } from '../validation/jsonSchema';
import { stableJson } from './stableJson';
import type { Tool, ToolMemory, ToolServices } from './tool';

/** A tool as one agent may use it (from its ToolRef, or added by the runtime). */
export interface ToolUse {
  tool: Tool;
  maxUsageCount?: number;
  resultAsAnswer?: boolean;
  requiresApproval?: boolean;
  config?: Record<string, unknown>;
}

export interface ToolCall {
  use: ToolUse;
  /** As the model sent them, already parsed from JSON. */
  args: unknown;
  callId: string;
  agentRole: string;
  taskId?: string;
  /** The agent's `cache` setting. */
  cache: boolean;
  /** The calling crew's memory (handed to memory tools), when it has memory enabled. */
  memory?: ToolMemory;
  /** How the call was read from the model's reply, when not literally (a text tool call, a cleaned name). */
  readAs?: ReadAs[];
  /** The approval a person gave while the run was paused at this call (humanPause.ts): not asked again. */
  decision?: ToolApprovalDecision;
}

export interface ToolOutcome {
  /** What the agent reads next. */
  observation: string;
  status: 'completed' | 'failed' | 'blocked' | 'cached';
  resultAsAnswer: boolean;
}

export interface HookCall {
  tool: string;
  args: Record<string, unknown>;
  agentRole: string;
  taskId?: string;
}
export type BeforeHookResult = { block: string } | { args: Record<string, unknown> } | { result: string };
export type BeforeToolHook = (call: HookCall) => void | BeforeHookResult | Promise<void | BeforeHookResult>;
export type AfterToolHook = (
  call: HookCall & { result: string },
) => void | { result: string } | Promise<void | { result: string }>;

export interface PolicyGateOptions {
  workspace: string;
  human: HumanChannel;
  before?: BeforeToolHook[];
  after?: AfterToolHook[];
  newRequestId?: () => string;
  /** Keys and the embedder, lent to every tool call (ToolContext.services). */
  services?: ToolServices;
}

type Validator = ValidateFunction | { schemaError: string };
type Blocker = 'hook' | 'approval' | 'usage_limit';

/**
 * The one door every tool call goes through (built-ins, delegation, memory, MCP). One gate per run,
 * shared by every task of a crew and every method of a flow (and the crews inside them): it holds the
 * run's cache, usage counts and "always allow" answers. Order: validate arguments,
 * before-hooks, approval, usage limit, cache, execute, after-hooks. Failures become observations;
 * only an abort rejects.
 */
export class PolicyGate {
  private readonly validators = new WeakMap<Tool, Validator>();
  private readonly quickChecks = new WeakMap<Tool, SurelyValid | undefined>();
  private readonly alwaysAllowed = new Set<string>();
  private readonly usage = new Map<string, number>();
  private readonly cache = new Map<string, string>();
  private readonly before: BeforeToolHook[];
  private readonly after: AfterToolHook[];
  private readonly newRequestId: () => string;

  constructor(private readonly options: PolicyGateOptions) {
    this.before = options.before ?? [];
    this.after = options.after ?? [];
    this.newRequestId = options.newRequestId ?? randomUUID;
  }

  async call(call: ToolCall, parent: Span, signal: AbortSignal): Promise<ToolOutcome> {
    signal.throwIfAborted();
    const name = call.use.tool.name;
    const span = parent.child();
    const toolId = call.use.tool.id !== undefined && call.use.tool.id !== name ? { toolId: call.use.tool.id } : {};
    span.emit({ type: 'tool.started', tool: name, args: call.args, agentRole: call.agentRole, callId: call.callId, ...(call.readAs ? { readAs: call.readAs } : {}), ...toolId });
    const started = performance.now();
    try {
      return await this.pass(call, span, signal, started);
    } catch (error) {
      if (error instanceof HumanInputPending) {
        // The run pauses for a person: its own approval (blocked until answered), or a question inside the tool (a coworker's).
        if (error.pending.parentSpanId === span.id) span.emit({ type: 'tool.blocked', tool: name, reason: 'waiting for a person to approve the call: the run pauses', by: 'approval' });
        else span.emit({ type: 'tool.failed', tool: name, error: `paused: ${error.message}`, durationMs: elapsed(started) });
        throw error;
      }
      if (signal.aborted) {
        span.emit({ type: 'tool.failed', tool: name, error: 'cancelled', durationMs: elapsed(started) });
        throw signal.reason ?? error;
      }
      const message = error instanceof Error ? error.message : String(error);
      span.emit({ type: 'tool.failed', tool: name, error: message, durationMs: elapsed(started) });
      return { observation: `Error using tool ${name}: ${message}`, status: 'failed', resultAsAnswer: false };
    }
  }

  private async pass(call: ToolCall, span: Span, signal: AbortSignal, started: number): Promise<ToolOutcome> {
    const { use, agentRole, taskId } = call;
    const { tool } = use;
    const invalid = this.checkArgs(tool, call.args);
    if (invalid) {
      span.emit({ type: 'tool.failed', tool: tool.name, error: invalid.error, durationMs: elapsed(started) });
      return { observation: invalid.observation, status: 'failed', resultAsAnswer: false };
    }

    let args = { ...(call.args as Record<string, unknown>) };
    for (const hook of this.before) {
      const decision = await hook({ tool: tool.name, args: { ...args }, agentRole, taskId });
      if (!decision) continue;
      if ('block' in decision) return this.block(span, tool.name, decision.block, 'hook', `Tool call blocked: ${decision.block}`);
      if ('result' in decision) return this.complete(call, args, decision.result, span, started, 'completed');
      if ('args' in decision) args = { ...decision.args };
    }

    if (use.requiresApproval && !this.alwaysAllowed.has(tool.name)) {
      const decision = call.decision ?? (await this.askApproval(call, args, span, signal));
      if (decision === 'deny') {
        return this.block(
          span,
          tool.name,
          'denied by the user',
          'approval',
          `The user denied permission to use the tool "${tool.name}". Continue without it.`,
        );
      }
      if (decision === 'always') this.alwaysAllowed.add(tool.name);
    }

    const usageKey = `${agentRole}\u0000${tool.name}`;
    const used = this.usage.get(usageKey) ?? 0;
    if (use.maxUsageCount !== undefined && used >= use.maxUsageCount) {
      const times = `${use.maxUsageCount} time${use.maxUsageCount === 1 ? '' : 's'}`;
      return this.block(
        span,
        tool.name,
        `usage limit of ${use.maxUsageCount} reached`,
        'usage_limit',
        `Tool call blocked: the tool "${tool.name}" has reached its usage limit (it may be used at most ${times}) ` +
          'and cannot be used again. Continue without it.',
      );
    }

    const cacheKey = call.cache && tool.cacheable !== false ? `${tool.name}\u0000${stableJson(args)}` : undefined;
    const hit = cacheKey === undefined ? undefined : this.cache.get(cacheKey);
    if (hit !== undefined) return this.complete(call, args, hit, span, started, 'cached');

    this.usage.set(usageKey, used + 1);
    // A tool that is not cacheable may change the world (write a file, post a request, run a
    // coworker): results cached before it may be stale afterwards.
    if (tool.cacheable === false) this.cache.clear();
    // The tool may hold the event loop (and be killed there): what the run emitted so far is stored first.
    span.log.flush();
    const output = await tool.execute(args, {
      workspace: this.options.workspace,
      signal,
      agentRole,
      taskId,
      config: use.config ?? {},
      toolName: tool.name,
      span,
      memory: call.memory,
      services: this.options.services,
    });
    const result = typeof output === 'string' ? output : JSON.stringify(output);
    if (cacheKey !== undefined) this.cache.set(cacheKey, result);
    return this.complete(call, args, result, span, started, 'completed');
  }

  /** Runs the after-hooks, then ends the span with `tool.completed` or `tool.cached`. */
  private async complete(
    call: ToolCall,
    args: Record<string, unknown>,
    raw: string,
    span: Span,
    started: number,
    status: 'completed' | 'cached',
  ): Promise<ToolOutcome> {
    const tool = call.use.tool.name;
    let result = raw;
    for (const hook of this.after) {
      const replaced = await hook({ tool, args: { ...args }, agentRole: call.agentRole, taskId: call.taskId, result });
      if (replaced) result = replaced.result;
    }
    const resultAsAnswer = call.use.resultAsAnswer ?? false;
    if (status === 'cached') span.emit({ type: 'tool.cached', tool, result });
    else span.emit({ type: 'tool.completed', tool, result, durationMs: elapsed(started), resultAsAnswer });
    return { observation: result, status, resultAsAnswer };
  }

  private block(span: Span, tool: string, reason: string, by: Blocker, observation: string): ToolOutcome {
    span.emit({ type: 'tool.blocked', tool, reason, by });
    return { observation, status: 'blocked', resultAsAnswer: false };
  }

  private async askApproval(
    call: ToolCall,
    args: Record<string, unknown>,
    span: Span,
    signal: AbortSignal,
  ): Promise<ToolApprovalDecision> {
    const requestId = this.newRequestId();
    const { agentRole, taskId } = call;
    const tool = call.use.tool.name;
    const shownArgs = truncate(JSON.stringify(args), 500);
    const request = span.child();
    request.emit({
      type: 'human.requested',
      requestId,
      kind: 'tool_approval',
      agentRole,
      taskId,
      tool,
      args,
      prompt: `${agentRole} wants to use the tool "${tool}" with arguments ${shownArgs}. Allow this call?`,
    });
    let decision: ToolApprovalDecision;
    try {
      decision = await this.options.human.approveTool({ requestId, agentRole, taskId, tool, args }, signal);
    } catch (error) {
      // Answered later (the run pauses): the request's span stays open until the run resumes with the answer.
      throw error instanceof HumanInputPending ? error.at({ spanId: request.id, parentSpanId: span.id }) : error;
    }
    request.emit({ type: 'human.answered', requestId, kind: 'tool_approval', decision });
    return decision;
  }

  /** undefined when the arguments fit the tool's schema; otherwise what to tell the event log and the model. */
  private checkArgs(tool: Tool, args: unknown): { error: string; observation: string } | undefined {
    // A built-in tool's simple schema confirms valid arguments without loading ajv (flatObjectSchema.ts).
    if (args !== null && typeof args === 'object' && !Array.isArray(args) && this.quickCheckFor(tool)?.(args as Record<string, unknown>)) return undefined;
    const validator = this.validatorFor(tool);
    if ('schemaError' in validator) {
      const error = `the tool's parameter schema is invalid: ${validator.schemaError}`;
      return { error, observation: `Error using tool ${tool.name}: ${error}` };
    }
    let problems: string[];
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      problems = [`the arguments must be a JSON object, not ${args === null ? 'null' : Array.isArray(args) ? 'an array' : typeof args}`];
    } else if (validator(args)) {
      return undefined;
    } else {
      problems = (validator.errors ?? []).map(describeProblem);
    }
    const error = `invalid arguments: ${problems.join('; ')}`;
    const observation =
      `Error using tool ${tool.name}: the arguments do not match its parameters.\n` +
      `Problems:\n${problems.map((p) => `- ${p}`).join('\n')}\n` +
      `Expected parameters (JSON Schema): ${JSON.stringify(tool.parameters)}\n` +
      `Call ${tool.name} again with arguments that match.`;
    return { error, observation };
  }

  private quickCheckFor(tool: Tool): SurelyValid | undefined {
    if (!this.quickChecks.has(tool)) this.quickChecks.set(tool, flatObjectCheck(tool.parameters));
    return this.quickChecks.get(tool);
  }

  private validatorFor(tool: Tool): Validator {
    let validator = this.validators.get(tool);
    if (validator) return validator;
    try {
      validator = compileSchema(tool.parameters);
    } catch (error) {
      validator = { schemaError: (error as Error).message };
    }
    this.validators.set(tool, validator);
    return validator;
  }
}

function describeProblem(error: ErrorObject): string {
  const at = error.instancePath ? `"${error.instancePath.slice(1).replaceAll('/', '.')}"` : 'arguments';
  const params = error.params as Record<string, unknown>;
  const where = error.instancePath ? ` in ${at}` : '';
  switch (error.keyword) {
    case 'required':
      return `missing required property "${String(params.missingProperty)}"${where}`;
    case 'additionalProperties':
      return `unexpected property "${String(params.additionalProperty)}"${where}`;
    case 'enum':
      return `${at} must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${at} ${error.message ?? 'is invalid'}`;
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
