import type { Span } from '../events/span';
import { executeAgent } from '../agent/executor';
import { matchName } from '../agent/fuzzyMatch';
import { taskPrompt } from '../agent/prompt';
import type { RunContext } from '../agent/runContext';
import { errorMessage } from '../errors';
import type { ToolUse } from '../tools/policyGate';
import { defineTool, ToolError } from '../tools/tool';
import type { CrewMember } from './roster';

/** Delegated work may itself delegate, but not endlessly. */
const MAX_DELEGATION_DEPTH = 2;

const COWORKER_EXPECTED_OUTPUT = 'Your best answer to your coworker asking you this, accounting for the context shared.';

export interface DelegationSetup {
  ctx: RunContext;
  delegator: CrewMember;
  recipients: CrewMember[];
  /** Every worker, for the coworkers' own delegation tools. */
  everyone: CrewMember[];
  taskId: string;
  depth?: number;
}

/** The "delegate work" and "ask question" tools, limited to the given recipients. */
export function delegationTools(setup: DelegationSetup): ToolUse[] {
  if (setup.recipients.length === 0) return [];
  // Roles may repeat (as in CrewAI): each is listed once, and delegation reaches its first agent.
  const roles = [...new Set(setup.recipients.map((r) => r.agent.role))];
  const roleList = roles.map((r) => `"${r}"`).join(', ');
  const delegate = defineTool({
    name: 'delegate_work',
    description:
      `Delegate a specific task to one of these coworkers: ${roleList}. ` +
      'They know nothing about your work except what you write in task and context, so explain everything they need.',
    parameters: {
      type: 'object',
      properties: {
        task: { type: 'string', description: 'The task to delegate' },
        context: { type: 'string', description: 'Everything the coworker needs to know to do it' },
        coworker: { type: 'string', description: `The role of the coworker, one of ${roleList}` },
      },
      required: ['task', 'coworker'],
      additionalProperties: false,
    },
    cacheable: false,
    execute: (args, toolCtx) => runCoworker(setup, 'delegate', String(args.task), String(args.context ?? ''), String(args.coworker), toolCtx.span, toolCtx.signal),
  });
  const ask = defineTool({
    name: 'ask_question',
    description:
      `Ask a specific question to one of these coworkers: ${roleList}. ` +
      'They know nothing about your work except what you write in question and context.',
    parameters: {
      type: 'object',
      properties: {
        question: { type: 'string', description: 'The question to ask' },
        context: { type: 'string', description: 'Everything the coworker needs to know to answer' },
        coworker: { type: 'string', description: `The role of the coworker, one of ${roleList}` },
      },
      required: ['question', 'coworker'],
      additionalProperties: false,
    },
    cacheable: false,
    execute: (args, toolCtx) => runCoworker(setup, 'ask', String(args.question), String(args.context ?? ''), String(args.coworker), toolCtx.span, toolCtx.signal),
  });
  return [{ tool: delegate }, { tool: ask }];
}

async function runCoworker(
  setup: DelegationSetup,
  kind: 'delegate' | 'ask',
  text: string,
  context: string,
  requested: string,
  toolSpan: Span | undefined,
  signal: AbortSignal,
): Promise<string> {
  const parent = toolSpan ?? setup.ctx.root;
  const span = parent.child();
  const manager = setup.delegator.agent.role;
  const coworker = matchName(requested, setup.recipients, (r) => r.agent.role);
  if (!coworker) {
    const validRoles = setup.recipients.map((r) => r.agent.role);
    const error = `there is no coworker "${requested}". Choose one of: ${validRoles.map((r) => `"${r}"`).join(', ')}`;
    span.emit({ type: 'delegation.failed', kind, manager, requestedCoworker: requested, error, validRoles });
    throw new ToolError(error);
  }
  const started = performance.now();
  span.emit({ type: 'delegation.started', kind, manager, coworker: coworker.agent.role, requestedCoworker: requested, task: text, context });
  const depth = (setup.depth ?? 0) + 1;
  const ownDelegation =
    coworker.agent.allowDelegation && depth < MAX_DELEGATION_DEPTH
      ? delegationTools({ ...setup, delegator: coworker, recipients: setup.everyone.filter((m) => m !== coworker), depth })
      : [];
  try {
    const result = await executeAgent({ ...setup.ctx, signal }, span, {
      agent: coworker.settings,
      model: coworker.model,
      tools: [...coworker.tools, ...ownDelegation],
      taskId: setup.taskId,
      prompt: taskPrompt({ description: text, expectedOutput: COWORKER_EXPECTED_OUTPUT, context }),
      humanInput: false,
      delegatedBy: manager,
    });
    span.emit({ type: 'delegation.completed', kind, manager, coworker: coworker.agent.role, result: result.output, durationMs: Math.round(performance.now() - started) });
    return result.output;
  } catch (error) {
    const message = signal.aborted ? `stopped: ${errorMessage(signal.reason ?? error)}` : `coworker "${coworker.agent.role}" could not finish: ${errorMessage(error)}`;
    span.emit({ type: 'delegation.failed', kind, manager, requestedCoworker: requested, error: message, validRoles: setup.recipients.map((r) => r.agent.role) });
    if (signal.aborted) throw error;
    throw new ToolError(message);
  }
}
