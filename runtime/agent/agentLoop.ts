import type { ChatMessageRecord, ReadAs, ToolApprovalDecision, ToolCallRecord } from '../../shared/events';
import { addUsage, emptyUsage, type TokenUsage } from '../../shared/usage';
import type { Span } from '../events/span';
import type { ChatResponse } from '../llm/chatModel';
import type { ResumedAgent } from '../human/humanChannel';
import { HumanInputPending, type PausedConversation } from '../human/humanPause';
import { ContextWindowExceeded, ToolsUnsupported } from '../llm/errors';
import { toChatSchema } from '../tools/registry';
import type { AgentExecution } from './agentExecution';
import { AgentToolCalls, type ToolCallOutcome } from './agentToolCalls';
import { callModel } from './modelCall';
import { EMPTY_REPLY_NUDGE, FORCE_FINAL_ANSWER, humanFeedbackPrompt, systemPrompt, type ToolMode } from './prompt';
import { readTextToolCall } from '../reading/textToolCall';
import { formatErrorObservation, parseReact, readActionInput } from './reactParser';
import type { RunContext } from './runContext';
import { summariseConversation } from './summarise';

const MAX_SUMMARIES_IN_A_ROW = 3;

/** One agent's conversation with its model: the model/tool loop, forced answer, summarisation and human review. */
export class AgentLoop {
  mode: ToolMode;
  iterations = 0;
  usage: TokenUsage = emptyUsage();
  /** How the final answer was read from the reply, when not literally (reading/finalAnswer). */
  answerReadAs: ReadAs[] = [];
  private messages: ChatMessageRecord[];
  private readonly schemas;
  private readonly tools: AgentToolCalls;
  /** Model turns of the current round (up to maxIter; a resumed agent goes on counting). */
  private steps = 0;

  constructor(
    private readonly ctx: RunContext,
    private readonly span: Span,
    private readonly exec: AgentExecution,
    private readonly signal: AbortSignal,
    private readonly resumed?: ResumedAgent,
  ) {
    this.tools = new AgentToolCalls(ctx, span, exec, signal);
    this.schemas = exec.tools.map((u) => toChatSchema(u.tool));
    this.mode = exec.tools.length === 0 ? 'none' : exec.model.supportsNativeTools ? 'native' : 'react';
    this.messages = [
      { role: 'system', content: systemPrompt(exec.agent, this.mode, this.schemas) },
      { role: 'user', content: exec.prompt },
    ];
    if (resumed) {
      this.mode = resumed.conversation.mode;
      this.messages = [...resumed.conversation.messages];
      this.steps = resumed.conversation.steps;
    }
  }

  async execute(): Promise<string> {
    let next = await this.continueResumed();
    for (;;) {
      const answer = next?.answer ?? (await this.untilAnswer());
      if (!this.exec.humanInput) return answer;
      const feedback = next?.feedback ?? (await this.review(answer));
      next = undefined;
      if (feedback.trim() === '') return answer;
      this.messages.push({ role: 'assistant', content: answer }, { role: 'user', content: humanFeedbackPrompt(feedback) });
      this.steps = 0;
    }
  }

  /**
   * A resumed agent first does what it paused in, with the person's answer: the review's feedback, or the
   * tool calls left of its reply (the first with the decision). Undefined when it goes on with its loop.
   */
  private async continueResumed(): Promise<{ answer: string; feedback?: string } | undefined> {
    if (!this.resumed) return undefined;
    const { conversation, answer } = this.resumed;
    const next = conversation.next;
    if (next.kind === 'review') return { answer: next.answer, feedback: 'feedback' in answer ? answer.feedback : '' };
    const decision: ToolApprovalDecision = 'decision' in answer ? answer.decision : 'deny';
    const done = next.kind === 'calls' ? await this.runCalls(next.calls, decision, next.answer) : await this.runReact(next, decision);
    return done === undefined ? undefined : { answer: done };
  }

  /** Iterates until a final answer, or forces one when maxIter is reached. */
  private async untilAnswer(): Promise<string> {
    let summariesInARow = 0;
    while (this.steps < this.exec.agent.maxIter) {
      let response: ChatResponse;
      try {
        response = await this.ask(this.mode === 'native');
        summariesInARow = 0;
      } catch (error) {
        if (error instanceof ToolsUnsupported && this.mode === 'native') {
          this.switchToReact();
          continue;
        }
        if (error instanceof ContextWindowExceeded && this.exec.agent.respectContextWindow && summariesInARow < MAX_SUMMARIES_IN_A_ROW) {
          summariesInARow += 1;
          await this.summarise(error);
          continue;
        }
        if (error instanceof ContextWindowExceeded) {
          throw new ContextWindowExceeded(
            `the conversation no longer fits the model's context window and ${this.exec.agent.respectContextWindow ? 'summarising it did not help' : 'respectContextWindow is off'}: ${error.message}`,
            error.status,
            error.code,
          );
        }
        throw error;
      }
      this.steps += 1;
      this.iterations += 1;
      // An agent without tools reads its reply as a ReAct agent does (as in CrewAI): the final answer out
      // of "Thought: …\nFinal Answer: …", or the whole reply when it is in neither format.
      const answer = this.mode === 'native' ? await this.nativeStep(response) : await this.reactStep(response);
      if (answer !== undefined) return answer;
    }
    return this.forceAnswer();
  }

  private async nativeStep(response: ChatResponse): Promise<string | undefined> {
    if (response.toolCalls.length === 0) {
      const textCall = readTextToolCall(response.content, (name) => this.tools.find(name, {}, false) !== undefined);
      if (textCall) return this.textToolCall(textCall.name, textCall.args, textCall.arguments);
      if (response.content.trim() !== '') return response.content.trim();
      this.messages.push({ role: 'assistant', content: '' }, { role: 'user', content: EMPTY_REPLY_NUDGE });
      return undefined;
    }
    this.messages.push({ role: 'assistant', content: response.content, toolCalls: response.toolCalls });
    return this.runCalls(response.toolCalls);
  }

  /** Runs a reply's tool calls in order; `decision`: the first one's approval, given while the run was paused. */
  private async runCalls(calls: ToolCallRecord[], decision?: ToolApprovalDecision, answerSoFar?: string): Promise<string | undefined> {
    let answer = answerSoFar;
    for (const [i, call] of calls.entries()) {
      const read = readActionInput(call.arguments);
      let outcome: ToolCallOutcome;
      try {
        outcome =
          read === undefined
            ? await this.tools.failedCall(call.name, call.arguments, call.id, `the arguments are not a valid JSON object: ${call.arguments}`)
            : await this.tools.use(call.name, read.input, call.id, { readAs: read.readAs, decision: i === 0 ? decision : undefined });
      } catch (error) {
        throw this.placed(error, { kind: 'calls', calls: calls.slice(i), ...(answer !== undefined ? { answer } : {}) });
      }
      this.messages.push({ role: 'tool', toolCallId: call.id, content: outcome.observation });
      if (outcome.resultAsAnswer && answer === undefined) answer = outcome.observation;
    }
    return answer;
  }

  /**
   * A question to a person that pauses the run (humanPause.ts), asked by this agent: kept with where the
   * agent stands, so it goes on from here when the run resumes (a delegated coworker's is not: its task runs again).
   */
  private placed(error: unknown, next: PausedConversation['next']): unknown {
    if (!(error instanceof HumanInputPending) || error.pending.conversation || this.exec.delegatedBy !== undefined) return error;
    if (error.pending.agentRole !== this.exec.agent.role || error.pending.taskId !== this.exec.taskId) return error;
    return error.at({ spanId: error.pending.spanId, ...(error.pending.parentSpanId ? { parentSpanId: error.pending.parentSpanId } : {}), conversation: { messages: [...this.messages], mode: this.mode, steps: this.steps, next } });
  }

  /**
   * A tool call the model wrote as its reply's text (small local models in native mode): run as a native
   * call, so the conversation goes on as if the model had sent one.
   */
  private async textToolCall(name: string, args: Record<string, unknown>, argumentsJson: string): Promise<string | undefined> {
    const call = { id: this.ctx.newId('call'), name, arguments: argumentsJson };
    this.messages.push({ role: 'assistant', content: '', toolCalls: [call] });
    let outcome: ToolCallOutcome;
    try {
      outcome = await this.tools.use(name, args, call.id, { readAs: ['text-tool-call'] });
    } catch (error) {
      throw this.placed(error, { kind: 'calls', calls: [call] });
    }
    this.messages.push({ role: 'tool', toolCallId: call.id, content: outcome.observation });
    return outcome.resultAsAnswer ? outcome.observation : undefined;
  }

  private async reactStep(response: ChatResponse): Promise<string | undefined> {
    const step = parseReact(response.content);
    if (step.kind === 'final') {
      this.answerReadAs = step.readAs;
      return step.answer;
    }
    if (step.kind === 'invalid') {
      const empty = response.content.trim() === '';
      const note = empty && this.mode === 'none' ? EMPTY_REPLY_NUDGE : formatErrorObservation(step.error, this.mode === 'react');
      this.messages.push({ role: 'assistant', content: response.content }, { role: 'user', content: note });
      return undefined;
    }
    let outcome: ToolCallOutcome;
    try {
      outcome = await this.tools.use(step.tool, step.input, this.ctx.newId('call'), { readAs: step.readAs, react: true });
    } catch (error) {
      throw this.placed(error, { kind: 'react', tool: step.tool, input: step.input, text: step.text });
    }
    this.messages.push({ role: 'assistant', content: step.text }, { role: 'user', content: `Observation: ${outcome.observation}` });
    return outcome.resultAsAnswer ? outcome.observation : undefined;
  }

  /** A ReAct step's call that waited for approval, made with the person's decision. */
  private async runReact(step: { tool: string; input: Record<string, unknown>; text: string }, decision: ToolApprovalDecision): Promise<string | undefined> {
    const outcome = await this.tools.use(step.tool, step.input, this.ctx.newId('call'), { decision, react: true });
    this.messages.push({ role: 'assistant', content: step.text }, { role: 'user', content: `Observation: ${outcome.observation}` });
    return outcome.resultAsAnswer ? outcome.observation : undefined;
  }

  private async forceAnswer(): Promise<string> {
    this.messages.push({ role: 'user', content: FORCE_FINAL_ANSWER });
    const response = await this.ask(false, 'forced_answer');
    this.iterations += 1;
    if (this.mode !== 'native') {
      const step = parseReact(response.content);
      if (step.kind === 'final') {
        this.answerReadAs = step.readAs;
        return step.answer;
      }
    }
    return response.content.trim();
  }

  private async review(answer: string): Promise<string> {
    const requestId = this.ctx.newId('h');
    const prompt = this.exec.reviewPrompt ?? this.exec.prompt;
    const span = this.span.child();
    span.emit({ type: 'human.requested', requestId, kind: 'task_review', taskId: this.exec.taskId, agentRole: this.exec.agent.role, prompt, output: answer });
    let feedback: string;
    try {
      feedback = await this.ctx.human.reviewTask({ requestId, taskId: this.exec.taskId, agentRole: this.exec.agent.role, prompt, output: answer }, this.signal);
    } catch (error) {
      throw this.placed(error instanceof HumanInputPending ? error.at({ spanId: span.id, parentSpanId: this.span.id }) : error, { kind: 'review', answer });
    }
    span.emit({ type: 'human.answered', requestId, kind: 'task_review', feedback });
    return feedback;
  }

  private switchToReact(): void {
    this.mode = 'react';
    this.messages[0] = { role: 'system', content: systemPrompt(this.exec.agent, 'react', this.schemas) };
    // Native tool-call turns cannot be replayed to a model without tool support.
    this.messages = this.messages.filter((m) => m.role !== 'tool' && !(m.role === 'assistant' && m.toolCalls?.length));
  }

  private async summarise(cause: ContextWindowExceeded): Promise<void> {
    const [system, task, ...rest] = this.messages;
    if (system === undefined || task === undefined || rest.length === 0) throw cause;
    const summary = await summariseConversation(this.ctx, this.span, this.exec.model, rest, {
      taskId: this.exec.taskId,
      agentRole: this.exec.agent.role,
      signal: this.signal,
      onUsage: (u) => (this.usage = addUsage(this.usage, u)),
    });
    this.messages = [system, task, { role: 'user', content: `Summary of your work on this task so far:\n${summary}\n\nContinue the task from here.` }];
  }

  private async ask(withTools: boolean, purpose: 'agent' | 'forced_answer' = 'agent'): Promise<ChatResponse> {
    const response = await callModel(
      this.ctx,
      this.span,
      this.exec.model,
      { purpose, taskId: this.exec.taskId, agentRole: this.exec.agent.role },
      {
        messages: [...this.messages],
        tools: withTools ? this.schemas : undefined,
        stop: this.mode === 'react' ? ['\nObservation:'] : undefined,
        signal: this.signal,
      },
    );
    this.usage = addUsage(this.usage, response.usage);
    return response;
  }
}

