import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ChatMessageRecord } from '../../shared/events';
import type { ChatToolSchema, ResponseFormat } from './chatModel';
import { toWireName } from './toolWireName';

/** Our message records → OpenAI chat-completions messages. */
export function toOpenAIMessages(messages: ChatMessageRecord[]): ChatCompletionMessageParam[] {
  return messages.map((m): ChatCompletionMessageParam => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content };
      case 'user':
        return { role: 'user', content: m.content };
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content };
      case 'assistant':
        if (m.toolCalls && m.toolCalls.length > 0) {
          return {
            role: 'assistant',
            content: m.content === '' ? null : m.content,
            tool_calls: m.toolCalls.map((c) => ({
              id: c.id,
              type: 'function' as const,
              function: { name: toWireName(c.name), arguments: c.arguments },
            })),
          };
        }
        return { role: 'assistant', content: m.content };
    }
  });
}

export function toOpenAITools(tools: ChatToolSchema[]): ChatCompletionTool[] {
  return tools.map((t) => ({
    type: 'function' as const,
    function: { name: toWireName(t.name), description: t.description, parameters: t.parameters },
  }));
}

export function toOpenAIResponseFormat(format: ResponseFormat): ChatCompletionCreateParamsBase['response_format'] {
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema':
      return { type: 'json_schema', json_schema: { name: format.name, schema: format.schema } };
  }
}
