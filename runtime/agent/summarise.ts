import type { ChatMessageRecord } from '../../shared/events';
import type { TokenUsage } from '../../shared/usage';
import type { Span } from '../events/span';
import type { ChatModel } from '../llm/chatModel';
import { callModel } from './modelCall';
import type { RunContext } from './runContext';

/** Roughly how much transcript one summarisation request carries. */
const CHUNK_CHARS = 12_000;

/**
 * Summarises a conversation that no longer fits the context window, in chunks so that each request
 * is small, and joins the partial summaries.
 */
export async function summariseConversation(
  ctx: RunContext,
  parent: Span,
  model: ChatModel,
  messages: ChatMessageRecord[],
  scope: { taskId: string; agentRole: string; signal: AbortSignal; onUsage: (u: TokenUsage) => void },
): Promise<string> {
  const chunks: string[] = [];
  let current = '';
  for (const m of messages) {
    const line = renderMessage(m);
    if (current && current.length + line.length > CHUNK_CHARS) {
      chunks.push(current);
      current = '';
    }
    current += `${line}\n\n`;
  }
  if (current) chunks.push(current);
  const parts: string[] = [];
  for (const chunk of chunks) {
    const response = await callModel(ctx, parent, model, { purpose: 'summarise', taskId: scope.taskId, agentRole: scope.agentRole }, {
      messages: [
        { role: 'system', content: 'You summarise an agent\'s work so it can continue with less text. Keep every fact, number, tool result and decision that the rest of the task may need.' },
        { role: 'user', content: `Summarise this part of the conversation:\n\n${chunk.length > CHUNK_CHARS ? chunk.slice(0, CHUNK_CHARS) : chunk}` },
      ],
      signal: scope.signal,
    });
    scope.onUsage(response.usage);
    parts.push(response.content.trim());
  }
  return parts.join('\n\n');
}

function renderMessage(m: ChatMessageRecord): string {
  const calls = m.toolCalls?.length ? ` [calls ${m.toolCalls.map((c) => `${c.name}(${c.arguments})`).join(', ')}]` : '';
  return `${m.role}${calls}: ${m.content}`;
}
