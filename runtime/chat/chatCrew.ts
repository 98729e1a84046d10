import type { RunPurpose } from '../../shared/events';
import type { ChatTurn, Conversation, CrewDocument } from '../../shared/model/crew';
import { resolveInputs } from '../crew/interpolate';
import { ChatInvalid } from './chatErrors';

/** The one task of a chat reply; its id names it in the trace. */
export const CHAT_TASK_ID = 'reply';
/**
 * What was said goes in as inputs, never into the task text itself: `{name}` in a person's message is
 * text, not a placeholder (interpolation does not read what it fills in).
 */
const HISTORY_INPUT = 'crewdeck_chat_history';
const MESSAGE_INPUT = 'crewdeck_chat_message';

export interface ChatRequest {
  agentId: string;
  /** The turns before `message`, oldest first. */
  history: readonly ChatTurn[];
  message: string;
  /** The crew's inputs (its declared defaults fill the rest): an agent's role or goal may use them. */
  inputs?: Record<string, string>;
  /** A kept conversation replayed by a test. */
  sessionId?: string;
}

/**
 * One reply of an agent in a chat, as a run (SPEC §10 chat pane): a one-task crew of that agent alone,
 * with its model, tools, knowledge and the crew's memory, whose task is to answer the person's latest
 * message given the turns before it. Nothing else of the crew runs; the agent delegates to nobody.
 */
export function chatCrew(doc: CrewDocument, request: ChatRequest): { doc: CrewDocument; inputs: Record<string, string>; purpose: RunPurpose } {
  const agent = doc.agents.find((a) => a.id === request.agentId);
  if (!agent) throw new ChatInvalid(`the crew "${doc.name}" has no agent with id "${request.agentId}" (its agents: ${doc.agents.map((a) => a.id).join(', ')})`);
  if (request.message.trim() === '') throw new ChatInvalid('the message is empty');
  const chat: CrewDocument = {
    kind: 'crew',
    version: doc.version,
    id: doc.id,
    name: `Chat with ${agent.role}`,
    process: 'sequential',
    agents: [{ ...agent, allowDelegation: false }],
    tasks: [
      {
        id: CHAT_TASK_ID,
        name: 'Reply',
        description:
          'You are in a conversation with a person who is trying you out.\n' +
          `{${HISTORY_INPUT}}\n` +
          `The person's latest message:\n{${MESSAGE_INPUT}}\n\n` +
          'Reply to that message directly, as yourself. Use your tools when they help.',
        expectedOutput: "Your reply to the person's latest message.",
        agentId: agent.id,
        context: 'none',
        async: false,
        humanInput: false,
        guardrails: [],
        guardrailMaxRetries: 0,
      },
    ],
    ...(doc.memory ? { memory: doc.memory } : {}),
    ...(doc.knowledge ? { knowledge: doc.knowledge } : {}),
    ...(doc.knowledgeSettings ? { knowledgeSettings: doc.knowledgeSettings } : {}),
    ...(doc.inputs ? { inputs: doc.inputs } : {}),
    ...(doc.maxRpm !== undefined ? { maxRpm: doc.maxRpm } : {}),
    ...(doc.budget ? { budget: doc.budget } : {}),
  };
  const inputs = {
    ...resolveInputs(doc, request.inputs ?? {}),
    [HISTORY_INPUT]: historyText(request.history),
    [MESSAGE_INPUT]: request.message,
  };
  return { doc: chat, inputs, purpose: { kind: 'chat', agentId: agent.id, role: agent.role, ...(request.sessionId ? { sessionId: request.sessionId } : {}) } };
}

function historyText(history: readonly ChatTurn[]): string {
  if (history.length === 0) return 'This is the first message.\n';
  return `The conversation so far:\n${history.map((t) => `${t.role === 'user' ? 'Person' : 'You'}: ${t.text}`).join('\n')}\n`;
}

/** A kept conversation as a chat request: its last user turn, the turns before it as history; and the reply it kept. */
export function replayOf(conversation: Conversation): { request: ChatRequest; expected: string } {
  const turns = conversation.turns;
  // The conversation schema requires a user turn and the agent reply kept for it at the end.
  return {
    request: { agentId: conversation.agentId, history: turns.slice(0, -2), message: turns.at(-2)!.text },
    expected: turns.at(-1)!.text,
  };
}
