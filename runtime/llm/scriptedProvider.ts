import type { ChatMessageRecord, ToolCallRecord } from '../../shared/events';
import type { TokenUsage } from '../../shared/usage';
import { abortableSleep, type Sleep } from './abortableSleep';
import type { ChatModel, ChatRequest, ChatResponse } from './chatModel';
import { ContextWindowExceeded, ModelCallAborted, ModelCallFailed, ScriptExhausted, ToolsUnsupported } from './errors';
import { compileTextGroups, type Match, type Reply, type Script } from './script';

export interface ScriptedChatModelOptions {
  /** Model name reported to events. Default "script". */
  model?: string;
  /** Names the script in errors (its file path, or a label). */
  source?: string;
  /** Overrides the script's `nativeTools`. */
  nativeTools?: boolean;
  /** Overrides the script's `stream`. */
  stream?: boolean;
  sleep?: Sleep;
}

/** Whether a rule matches: the groups its regexes captured (maybe none), or undefined. */
type Predicate = (request: ChatRequest, callIndex: number) => string[] | undefined;

interface CompiledRule {
  matches: Predicate;
  replies: Reply[];
  times: number;
  uses: number;
}

const STREAM_PIECES = 3;
const LAST_MESSAGE_PREVIEW = 200;

/**
 * The `scripted` provider: replies come from a script, resolved per call as rule → sequence → default.
 * State (sequence position, rule uses, call count) belongs to the instance.
 */
export class ScriptedChatModel implements ChatModel {
  readonly provider = 'scripted';
  readonly model: string;
  readonly supportsNativeTools: boolean;
  private readonly source: string;
  private readonly stream: boolean;
  private readonly sleep: Sleep;
  private readonly rules: CompiledRule[];
  private readonly sequence: Reply[];
  private readonly fallback: Reply | undefined;
  private calls = 0;
  private sequencePosition = 0;
  private toolCallCount = 0;

  constructor(script: Script, options: ScriptedChatModelOptions = {}) {
    this.model = options.model ?? 'script';
    this.source = options.source ?? `scripted:${this.model}`;
    this.supportsNativeTools = options.nativeTools ?? script.nativeTools ?? true;
    this.stream = options.stream ?? script.stream ?? false;
    this.sleep = options.sleep ?? abortableSleep;
    this.rules = (script.rules ?? []).map((rule) => ({
      matches: compileMatch(rule.when),
      replies: Array.isArray(rule.reply) ? rule.reply : [rule.reply],
      times: rule.times ?? Infinity,
      uses: 0,
    }));
    this.sequence = script.sequence ?? [];
    this.fallback = script.default;
  }

  /** Number of calls answered or attempted so far. */
  get callCount(): number {
    return this.calls;
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    if (request.signal?.aborted) throw new ModelCallAborted();
    const callIndex = this.calls++;
    const picked = this.pick(request, callIndex);
    const reply = typeof picked === 'string' ? { content: picked } : picked;
    if (reply.delayMs) await this.sleep(reply.delayMs, request.signal);
    if (request.signal?.aborted) throw new ModelCallAborted();
    if (reply.error) throw replyError(reply.error);

    const content = reply.content ?? '';
    const toolCalls: ToolCallRecord[] = (reply.toolCalls ?? []).map((call) => ({
      id: `call_${++this.toolCallCount}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    }));
    if (this.stream && request.onChunk && content) {
      for (const piece of splitForStreaming(content)) request.onChunk(piece);
    }
    return {
      content,
      toolCalls,
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      usage: usageFor(request.messages, content, toolCalls, reply.usage),
    };
  }

  private pick(request: ChatRequest, callIndex: number): Reply {
    for (const rule of this.rules) {
      if (rule.uses >= rule.times) continue;
      const groups = rule.matches(request, callIndex);
      if (groups === undefined) continue;
      // A rule has one reply at least (the script schema says so).
      const reply = rule.replies[Math.min(rule.uses, rule.replies.length - 1)]!;
      rule.uses++;
      return groups.length > 0 ? withGroups(reply, groups) : reply;
    }
    if (this.sequencePosition < this.sequence.length) return this.sequence[this.sequencePosition++]!;
    if (this.fallback !== undefined) return this.fallback;
    throw new ScriptExhausted(exhaustedMessage(this.source, callIndex, this.sequence.length, request.messages));
  }
}

function compileMatch(match: Match): Predicate {
  const checks: Predicate[] = [];
  const none: string[] = [];
  if (match.system !== undefined) {
    const groups = compileTextGroups(match.system);
    checks.push((r) => {
      for (const m of r.messages) if (m.role === 'system') {
        const found = groups(m.content);
        if (found) return found;
      }
      return undefined;
    });
  }
  if (match.last !== undefined) {
    const groups = compileTextGroups(match.last);
    checks.push((r) => {
      const last = r.messages.at(-1);
      return last !== undefined ? groups(last.content) : undefined;
    });
  }
  if (match.any !== undefined) {
    const groups = compileTextGroups(match.any);
    checks.push((r) => {
      for (const m of r.messages) {
        const found = groups(m.content);
        if (found) return found;
      }
      return undefined;
    });
  }
  if (match.lastRole !== undefined) {
    const role = match.lastRole;
    checks.push((r) => (r.messages.at(-1)?.role === role ? none : undefined));
  }
  if (match.hasTools !== undefined) {
    const wanted = match.hasTools;
    checks.push((r) => (((r.tools?.length ?? 0) > 0) === wanted ? none : undefined));
  }
  if (match.callIndex !== undefined) {
    const index = match.callIndex;
    checks.push((_r, callIndex) => (callIndex === index ? none : undefined));
  }
  if (checks.length === 0) return () => none;
  const [only] = checks;
  if (only !== undefined && checks.length === 1) return only;
  return (request, callIndex) => {
    const all: string[] = [];
    for (const check of checks) {
      const found = check(request, callIndex);
      if (found === undefined) return undefined;
      all.push(...found);
    }
    return all;
  };
}

/** The reply with `$1`…`$9` replaced by the rule's captured groups (in content and tool call arguments). */
function withGroups(reply: Reply, groups: string[]): Reply {
  const fill = (text: string, escape = (group: string) => group) => text.replace(/\$([1-9])/g, (whole, n: string) => (groups[Number(n) - 1] !== undefined ? escape(groups[Number(n) - 1]!) : whole));
  // Inside a JSON text a group is written as a JSON string's content (its quotes and newlines escaped).
  const inJson = (group: string) => JSON.stringify(group).slice(1, -1);
  if (typeof reply === 'string') return fill(reply);
  return {
    ...reply,
    ...(reply.content !== undefined ? { content: fill(reply.content) } : {}),
    ...(reply.toolCalls
      ? { toolCalls: reply.toolCalls.map((call) => ({ ...call, arguments: typeof call.arguments === 'string' ? fill(call.arguments) : (JSON.parse(fill(JSON.stringify(call.arguments), inJson)) as Record<string, unknown>) })) }
      : {}),
  };
}

function replyError(error: { status?: number; message: string; code?: string }): ModelCallFailed {
  if (error.code === 'context_length_exceeded') return new ContextWindowExceeded(error.message, error.status ?? 400, error.code);
  if (error.code === 'tools_unsupported') return new ToolsUnsupported(error.message, error.status ?? 400, error.code);
  return new ModelCallFailed(error.message, error.status, error.code);
}

function usageFor(
  messages: ChatMessageRecord[],
  content: string,
  toolCalls: ToolCallRecord[],
  given: { prompt?: number; completion?: number; cached?: number } | undefined,
): TokenUsage {
  let promptChars = 0;
  for (const m of messages) promptChars += m.content.length;
  let replyChars = content.length;
  for (const c of toolCalls) replyChars += c.name.length + c.arguments.length;
  const promptTokens = given?.prompt ?? Math.ceil(promptChars / 4);
  const completionTokens = given?.completion ?? Math.ceil(replyChars / 4);
  return {
    promptTokens,
    completionTokens,
    cachedPromptTokens: given?.cached ?? 0,
    totalTokens: promptTokens + completionTokens,
    requests: 1,
  };
}

/** A few word-aligned pieces whose concatenation is exactly `content`. */
function splitForStreaming(content: string): string[] {
  const words = content.match(/\s*\S+\s*|\s+/g) ?? [content];
  const perPiece = Math.max(1, Math.ceil(words.length / STREAM_PIECES));
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += perPiece) pieces.push(words.slice(i, i + perPiece).join(''));
  return pieces;
}

function exhaustedMessage(source: string, callIndex: number, sequenceLength: number, messages: ChatMessageRecord[]): string {
  const last = messages[messages.length - 1];
  const preview = last
    ? `${last.role}: "${last.content.length > LAST_MESSAGE_PREVIEW ? `${last.content.slice(0, LAST_MESSAGE_PREVIEW)}…` : last.content}"`
    : '(no messages)';
  return (
    `Script ${source} has no reply for call #${callIndex + 1}: no rule matched, ` +
    `${sequenceLength > 0 ? `all ${sequenceLength} sequence replies are used` : 'there is no sequence'}, ` +
    `and there is no default. Last message — ${preview}`
  );
}
