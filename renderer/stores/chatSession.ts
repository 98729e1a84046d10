import { z } from 'zod';

/**
 * The open chat, kept in sessionStorage (`crewdeck.chat`) so a reload of the page keeps the conversation
 * (each tab its own; browser mode's origin is its server, so each workspace its own too).
 */
const KEY = 'crewdeck.chat';
/** The newest messages kept across a reload. */
const MAX_KEPT = 500;

const StepSchema = z.union([
  z.object({ kind: z.literal('tool'), tool: z.string(), args: z.unknown(), result: z.string().optional(), error: z.string().optional(), blocked: z.string().optional() }),
  z.object({ kind: z.enum(['memory', 'knowledge']), query: z.string(), found: z.number() }),
]);

const SessionSchema = z.object({
  target: z.object({ path: z.string(), agentId: z.string(), role: z.string() }),
  messages: z
    .array(
      z.object({
        role: z.enum(['user', 'agent']),
        text: z.string(),
        runId: z.string().optional(),
        status: z.enum(['thinking', 'done', 'failed']).optional(),
        steps: z.array(StepSchema).optional(),
        tokens: z.number().optional(),
        seq: z.number().int().optional(),
      }),
    )
    .max(MAX_KEPT),
});

/** The chat's agent and messages (the shapes of chatStore's ChatTarget and ChatMessage). */
export type ChatSession = z.infer<typeof SessionSchema>;

/** The chat kept before the page was reloaded; nothing when there is none or it cannot be read. */
export function loadChatSession(): ChatSession | undefined {
  try {
    const raw = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(KEY);
    if (!raw) return undefined;
    const parsed = SessionSchema.safeParse(JSON.parse(raw));
    if (!parsed.success) return undefined;
    return parsed.data;
  } catch {
    return undefined;
  }
}

export function saveChatSession(session: ChatSession | undefined): void {
  try {
    if (typeof sessionStorage === 'undefined') return;
    if (!session || session.messages.length === 0) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, JSON.stringify({ ...session, messages: session.messages.slice(-MAX_KEPT) }));
  } catch {
    // Storage unavailable or full: the chat holds for this page only.
  }
}
