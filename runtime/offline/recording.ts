import type { EventPayloads, LlmPurpose, RuntimeEvent } from '../../shared/events';
import type { CallSite, ChatResponse } from '../llm/chatModel';
import { RunNotFound } from '../errors';
import type { RunStore } from '../store/types';

/** The document asks for a model reply (or an external tool result) the recorded run does not hold. */
export class NoRecordedReply extends Error {
  override name = 'NoRecordedReply';
  constructor(
    readonly role: string,
    readonly task: string,
    readonly call: number,
    what = 'reply',
  ) {
    super(`no recorded ${what} for ${role} in ${task} (call ${call}): the document asks for more than the recording holds`);
  }
}

export interface RecordedToolResult {
  ok: boolean;
  /** The result text, or the error message of a failed call. */
  text: string;
}

/** A knowledge chunk as the recorded run put it into a prompt (`knowledge.retrieved`). */
export type RecordedChunk = EventPayloads['knowledge.retrieved']['chunks'][number];
/** A memory as the recorded run recalled it (`memory.recall`). */
export type RecordedRecall = EventPayloads['memory.recall']['records'][number];

const MISSING: ChatResponse = { content: '', toolCalls: [], finishReason: 'missing', usage: { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0, totalTokens: 0, requests: 0 } };

/** Agent turns (and the forced final answer) count as one loop; other purposes (guardrail, memory…) count apart. */
function loopOf(purpose: LlmPurpose): string {
  return purpose === 'agent' || purpose === 'forced_answer' ? 'agent' : purpose;
}

function key(place: string, role: string, loop: string): string {
  return JSON.stringify([place, role, loop]);
}

/**
 * What a run's models said and its external tools returned, in the order asked, keyed by (task or
 * method, agent role, loop) so an offline re-run of the same document gets them back call by call
 * (retries included), even when parallel tasks or branches interleave differently.
 */
export class Recording {
  private readonly replies = new Map<string, ChatResponse[]>();
  private readonly tools = new Map<string, RecordedToolResult[]>();
  private readonly asked = new Map<string, number>();
  /** Knowledge chunks retrieved per (task, agent role), in the order asked. */
  private readonly knowledge = new Map<string, RecordedChunk[][]>();
  /** Memories recalled per (scope, query), in the order asked. */
  private readonly recalls = new Map<string, RecordedRecall[][]>();
  /** MCP tools as the recorded run offered them to its models (name, description, parameters). */
  readonly mcpTools = new Map<string, { description: string; parameters: Record<string, unknown> }>();

  private constructor(readonly runId: string) {}

  /** The same recording with its calls not yet asked for: one per offline run (a test's iterations each start again). */
  fresh(): Recording {
    const copy = new Recording(this.runId);
    for (const [k, list] of this.replies) copy.replies.set(k, list);
    for (const [k, list] of this.tools) copy.tools.set(k, list);
    for (const [k, tool] of this.mcpTools) copy.mcpTools.set(k, tool);
    for (const [k, list] of this.knowledge) copy.knowledge.set(k, list);
    for (const [k, list] of this.recalls) copy.recalls.set(k, list);
    return copy;
  }

  /** The recording of a stored run. */
  static fromStore(store: RunStore, runId: string): Recording {
    if (!store.getRun(runId)) throw new RunNotFound(runId);
    return Recording.fromEvents(runId, store.events(runId));
  }

  static fromEvents(runId: string, events: RuntimeEvent[]): Recording {
    const recording = new Recording(runId);
    // The task (or, outside tasks, the flow method) each span belongs to.
    const placeOf = new Map<string, string>();
    // Slots are taken when a call starts: calls are numbered in the order they were asked.
    const pendingLlm = new Map<string, { list: ChatResponse[]; index: number }>();
    const pendingTool = new Map<string, { list: RecordedToolResult[]; index: number }>();
    const push = <T>(map: Map<string, T[]>, k: string, value: T) => {
      const list = map.get(k) ?? [];
      list.push(value);
      map.set(k, list);
      return { list, index: list.length - 1 };
    };
    for (const e of events) {
      const inherited = e.parentSpanId === undefined ? undefined : placeOf.get(e.parentSpanId);
      if (e.type === 'task.started') placeOf.set(e.spanId, e.taskId);
      else if (e.type === 'flow.method.started') placeOf.set(e.spanId, inherited ?? e.methodId);
      else if (!placeOf.has(e.spanId) && inherited !== undefined) placeOf.set(e.spanId, inherited);
      const place = placeOf.get(e.spanId) ?? '';
      switch (e.type) {
        case 'llm.started': {
          for (const t of e.tools) if (t.name.startsWith('mcp:')) recording.mcpTools.set(t.name, { description: t.description, parameters: t.parameters as Record<string, unknown> });
          pendingLlm.set(e.spanId, push(recording.replies, key(place, e.agentRole ?? '', loopOf(e.purpose)), MISSING));
          break;
        }
        case 'llm.completed': {
          const slot = pendingLlm.get(e.spanId);
          if (slot === undefined) break;
          const { costUsd: _c, unpricedModels: _u, ...usage } = e.usage;
          slot.list[slot.index] = { content: e.content, toolCalls: e.toolCalls, finishReason: e.finishReason, usage };
          break;
        }
        case 'knowledge.retrieved':
          push(recording.knowledge, key(e.taskId, e.agentRole, 'knowledge'), e.chunks);
          break;
        case 'memory.recall':
          push(recording.recalls, JSON.stringify([e.scope, e.query]), e.records);
          break;
        case 'tool.started':
          if (isExternalTool(e.toolId ?? e.tool)) {
            pendingTool.set(e.spanId, push(recording.tools, key(place, e.agentRole, e.tool), { ok: false, text: 'the recorded call did not finish' }));
          }
          break;
        case 'tool.completed':
        case 'tool.failed': {
          const slot = pendingTool.get(e.spanId);
          if (slot === undefined) break;
          slot.list[slot.index] = e.type === 'tool.completed' ? { ok: true, text: e.result } : { ok: false, text: e.error };
          break;
        }
        default:
          break;
      }
    }
    // Calls that never completed (a failed or cancelled call) keep MISSING: they hold no reply.
    return recording;
  }

  /** The next recorded reply for this call site. */
  reply(site: CallSite): ChatResponse {
    const place = site.taskId ?? site.methodId ?? '';
    const k = key(place, site.agentRole ?? '', loopOf(site.purpose));
    const n = (this.asked.get(k) ?? 0) + 1;
    this.asked.set(k, n);
    const reply = this.replies.get(k)?.[n - 1];
    if (!reply || reply === MISSING) throw new NoRecordedReply(site.agentRole ?? `the ${site.purpose} call`, place || 'the run', n);
    return reply;
  }

  /** The next recorded result of an external tool for this agent in this task. */
  toolResult(tool: string, agentRole: string, taskId: string | undefined): RecordedToolResult {
    const k = key(taskId ?? '', agentRole, tool);
    const n = (this.asked.get(`tool:${k}`) ?? 0) + 1;
    this.asked.set(`tool:${k}`, n);
    const result = this.tools.get(k)?.[n - 1];
    if (!result) throw new NoRecordedReply(agentRole, taskId ?? 'the run', n, `${tool} result`);
    return result;
  }

  /** The next knowledge chunks the recorded run retrieved for this agent in this task (undefined: none recorded). */
  knowledgeFor(taskId: string, agentRole: string): { chunks: RecordedChunk[]; call: number } | undefined {
    const k = key(taskId, agentRole, 'knowledge');
    const n = this.knowledgeCalls(taskId, agentRole) + 1;
    this.asked.set(`knowledge:${k}`, n);
    const chunks = this.knowledge.get(k)?.[n - 1];
    return chunks ? { chunks, call: n } : undefined;
  }

  /** How many times this agent in this task has asked for knowledge so far. */
  knowledgeCalls(taskId: string, agentRole: string): number {
    return this.asked.get(`knowledge:${key(taskId, agentRole, 'knowledge')}`) ?? 0;
  }

  /** The next memories the recorded run recalled for this query in this scope (undefined: none recorded). */
  recallFor(scope: string, query: string): RecordedRecall[] | undefined {
    const k = JSON.stringify([scope, query]);
    const n = (this.asked.get(`recall:${k}`) ?? 0) + 1;
    this.asked.set(`recall:${k}`, n);
    return this.recalls.get(k)?.[n - 1];
  }

  /** How many model calls the recording holds (for messages). */
  get size(): number {
    let n = 0;
    for (const list of this.replies.values()) n += list.filter((r) => r !== MISSING).length;
    return n;
  }
}


/**
 * Tools whose results come from outside the machine (or from a process or embedder of their own): an
 * offline re-run answers them from the recording. The search tools (memory search too) are recorded,
 * so a re-run needs neither the provider, the page, nor the embedder.
 */
const RECORDED_TOOLS = new Set(['http_request', 'web_search', 'scrape_website', 'website_search', 'file_search', 'search_memory']);

export function isExternalTool(name: string): boolean {
  return RECORDED_TOOLS.has(name) || name.startsWith('mcp:');
}
