import { create } from 'zustand';
import type { RuntimeEvent } from '../../shared/events';
import type { HostPush } from '../../shared/host-api';
import type { ChatTurn, Conversation } from '../../shared/model/crew';
import { freshId } from '../commands/freshId';
import { updateCrew } from '../commands/updateCrew';
import { host } from '../host/hostContext';
import { loadChatSession, saveChatSession } from './chatSession';
import { useDocumentStore } from './documentStore';

/** What the agent did on the way to a reply, as the chat shows it under the reply. */
export type ChatStep =
  | { kind: 'tool'; tool: string; args: unknown; result?: string; error?: string; blocked?: string }
  | { kind: 'memory'; query: string; found: number }
  | { kind: 'knowledge'; query: string; found: number };

export interface ChatMessage {
  role: 'user' | 'agent';
  text: string;
  /** An agent message: the run that made it (each reply is a small run with its own trace). */
  runId?: string;
  status?: 'thinking' | 'done' | 'failed';
  steps?: ChatStep[];
  tokens?: number;
  /** The last event of its run folded in: a run's events read again after a reload are not folded twice. */
  seq?: number;
}

/** Which agent the chat talks to: one agent of the crew in `path`. */
export interface ChatTarget {
  path: string;
  agentId: string;
  role: string;
}

export interface ChatState {
  target?: ChatTarget;
  messages: ChatMessage[];
  sending: boolean;
  error?: string;
  /** The name the last kept conversation was saved under (until the next message). */
  kept?: string;

  attach(): () => void;
  /** Talks to another agent (a new conversation); the same one keeps the conversation. */
  open(target: ChatTarget): void;
  send(text: string): Promise<void>;
  /** Starts over with the same agent. */
  clear(): void;
  /** Saves the conversation in the crew as a test case (`conversations`), scored by the crew's tests. */
  keep(name: string): Promise<void>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A chat run's events as they arrive, kept by run id until its message takes them (pushes may come first). */
const pending = new Map<string, RuntimeEvent[]>();
/** Runs whose stored events are being read after a reload (see `catchUp`). */
const catching = new Set<string>();
let detach: (() => void) | undefined;

export const useChatStore = create<ChatState>()((set, get) => {
  const apply = (runId: string, events: RuntimeEvent[]) => {
    set((s) => ({ messages: s.messages.map((m) => (m.runId === runId ? events.reduce(foldNewer, m) : m)) }));
  };

  /**
   * Replies that were on their way when the page was reloaded: their runs went on in the host. What is
   * pushed while their stored events are read waits, then both are folded (each event once, by seq).
   */
  const catchUp = async () => {
    for (const m of get().messages) {
      if (m.status !== 'thinking' || !m.runId) continue;
      catching.add(m.runId);
      pending.set(m.runId, []);
      try {
        const { events } = await host().invoke('runs.events', { runId: m.runId, afterSeq: m.seq ?? 0 });
        apply(m.runId, [...(events as RuntimeEvent[]), ...(pending.get(m.runId) ?? [])]);
        // A run that stopped without ending (its host process went away) will send no reply.
        if (get().messages.some((x) => x.runId === m.runId && x.status === 'thinking')) {
          const { run } = await host().invoke('runs.get', { runId: m.runId });
          if (run.status !== 'running') stopped(m.runId, `the reply's run is ${run.status}${run.error ? `: ${run.error}` : ''}`);
        }
      } catch (error) {
        stopped(m.runId, `could not read the reply's run: ${message(error)}`);
      } finally {
        catching.delete(m.runId);
        pending.delete(m.runId);
      }
    }
  };
  const stopped = (runId: string, why: string) => {
    set((s) => ({ messages: s.messages.map((x) => (x.runId === runId && x.status === 'thinking' ? { ...x, status: 'failed', text: why } : x)) }));
  };
  const restored = loadChatSession();

  const onPush = (push: HostPush) => {
    if (push.kind !== 'event') return;
    const e = push.event;
    if (e.type === 'run.started' && e.purpose?.kind === 'chat') pending.set(e.runId, []);
    if (!catching.has(e.runId) && get().messages.some((m) => m.runId === e.runId)) apply(e.runId, [e]);
    else pending.get(e.runId)?.push(e);
  };

  return {
    ...(restored ? { target: restored.target } : {}),
    messages: restored?.messages ?? [],
    sending: false,

    attach() {
      if (detach) return detach;
      const unsubscribe = host().subscribe(onPush);
      void catchUp();
      detach = () => {
        unsubscribe();
        detach = undefined;
      };
      return detach;
    },

    open(target) {
      const current = get().target;
      if (current && current.path === target.path && current.agentId === target.agentId) {
        set({ target });
        return;
      }
      set({ target, messages: [], error: undefined, kept: undefined, sending: false });
    },

    async send(text) {
      const target = get().target;
      const said = text.trim();
      if (!target || said === '' || get().sending) return;
      const history = answeredTurns(get().messages);
      set((s) => ({ messages: [...s.messages, { role: 'user', text: said }], sending: true, error: undefined, kept: undefined }));
      try {
        // The run reads the crew from disk: what was just edited is saved first.
        if (useDocumentStore.getState().path === target.path) await useDocumentStore.getState().flushSave();
        const { runId } = await host().invoke('chat.send', { path: target.path, agentId: target.agentId, history, message: said });
        if (get().target !== target) return;
        const early = pending.get(runId) ?? [];
        pending.delete(runId);
        set((s) => ({ messages: [...s.messages, early.reduce(foldNewer, { role: 'agent', text: '', runId, status: 'thinking', steps: [] } as ChatMessage)] }));
      } catch (error) {
        if (get().target === target) set({ error: message(error) });
      } finally {
        if (get().target === target) set({ sending: false });
      }
    },

    clear() {
      set({ messages: [], error: undefined, kept: undefined });
    },

    async keep(name) {
      const target = get().target;
      if (!target) return;
      const turns = keptTurns(get().messages);
      if (!turns) throw new Error('keep a conversation after the agent has answered');
      const documents = useDocumentStore.getState();
      const label = name.trim() || `Chat with ${target.role}`;
      if (documents.path === target.path && documents.doc) {
        // The crew on the canvas: an edit like any other (undoable, autosaved).
        const conversations = existing(documents.doc.conversations);
        const result = documents.perform(updateCrew({ conversations: [...conversations, conversationOf(conversations, target, label, turns)] }, { label: 'Keep conversation as a test' }));
        if (!result.ok) throw new Error(result.reason);
      } else {
        const { document } = await host().invoke('documents.read', { path: target.path });
        if (!document || typeof document !== 'object') throw new Error(`${target.path} is not a readable crew`);
        const crew = document as Record<string, unknown>;
        const conversations = existing(crew.conversations);
        await host().invoke('documents.save', { path: target.path, document: { ...crew, conversations: [...conversations, conversationOf(conversations, target, label, turns)] } });
      }
      set({ kept: label });
    },
  };
});

// The open chat outlives a reload of the page.
useChatStore.subscribe((s, prev) => {
  if (s.messages !== prev.messages || s.target !== prev.target) saveChatSession(s.target ? { target: s.target, messages: s.messages } : undefined);
});

function foldNewer(m: ChatMessage, e: RuntimeEvent): ChatMessage {
  return m.seq !== undefined && e.seq <= m.seq ? m : { ...foldEvent(m, e), seq: e.seq };
}

/** The turns a kept conversation holds: everything answered, ending with the agent's last reply. */
export function keptTurns(messages: readonly ChatMessage[]): ChatTurn[] | undefined {
  const turns = answeredTurns(messages);
  while (turns.at(-1)?.role === 'user') turns.pop();
  return turns.at(-2)?.role === 'user' ? turns : undefined;
}

/** What was said and answered: failed and unfinished replies are not part of the conversation. */
function answeredTurns(messages: readonly ChatMessage[]): ChatTurn[] {
  return messages.filter((m) => m.status !== 'failed' && m.status !== 'thinking' && m.text !== '').map((m) => ({ role: m.role, text: m.text }));
}

function existing(value: unknown): Conversation[] {
  return Array.isArray(value) ? (value as Conversation[]) : [];
}

function conversationOf(conversations: readonly Conversation[], target: ChatTarget, name: string, turns: ChatTurn[]): Conversation {
  const taken = new Set(conversations.map((c) => c.id));
  return { id: freshId(name, taken), agentId: target.agentId, name, turns };
}

/** One event of a chat run folded into its message. */
export function foldEvent(m: ChatMessage, e: RuntimeEvent): ChatMessage {
  const steps = m.steps ?? [];
  switch (e.type) {
    case 'tool.started':
      return { ...m, steps: [...steps, { kind: 'tool', tool: e.tool, args: e.args }] };
    case 'tool.completed':
    case 'tool.cached':
      return { ...m, steps: withLastTool(steps, e.tool, { result: e.result }) };
    case 'tool.failed':
      return { ...m, steps: withLastTool(steps, e.tool, { error: e.error }) };
    case 'tool.blocked':
      return { ...m, steps: [...steps, { kind: 'tool', tool: e.tool, args: undefined, blocked: e.reason }] };
    case 'memory.recall':
      return { ...m, steps: [...steps, { kind: 'memory', query: e.query, found: e.records.length }] };
    case 'knowledge.retrieved':
      return { ...m, steps: [...steps, { kind: 'knowledge', query: e.query, found: e.chunks.length }] };
    case 'run.completed':
      return { ...m, status: 'done', text: e.output, tokens: e.tokenUsage.totalTokens };
    case 'run.failed':
      return { ...m, status: 'failed', text: e.error, tokens: e.tokenUsage.totalTokens };
    case 'run.cancelled':
      return { ...m, status: 'failed', text: `stopped: ${e.reason}` };
    default:
      return m;
  }
}

function withLastTool(steps: ChatStep[], tool: string, end: { result?: string; error?: string }): ChatStep[] {
  // The last call of this tool that is still open.
  const at = steps.reduce((last, step, i) => (isOpenCall(step, tool) ? i : last), -1);
  if (at < 0) return steps;
  return steps.map((s, i) => (i === at ? { ...s, ...end } : s));
}

function isOpenCall(step: ChatStep, tool: string): boolean {
  return step.kind === 'tool' && step.tool === tool && step.result === undefined && step.error === undefined && step.blocked === undefined;
}
