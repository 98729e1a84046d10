import { z } from 'zod';
import { ChatTurnSchema, MAX_CHAT_TURNS } from '../model/crew';
import { DocumentPathSchema, Id, Inputs, type ChannelSchemas } from './requestFields';

export const CHAT_CHANNELS = {
  /**
   * One reply of one agent of a crew in a chat (the chat pane): a small run of that agent alone with its
   * model, tools and the crew's memory, answering `message` given the turns before it. Answers once the
   * run has opened; its events are pushed as any run's, its `run.completed` output is the reply.
   */
  'chat.send': {
    request: z.strictObject({
      path: DocumentPathSchema,
      agentId: Id,
      history: z.array(ChatTurnSchema).max(MAX_CHAT_TURNS - 1).default([]),
      message: z.string().trim().min(1).max(100_000),
      inputs: Inputs.optional(),
    }),
    response: z.object({ runId: z.string() }),
  },
} as const satisfies ChannelSchemas;
