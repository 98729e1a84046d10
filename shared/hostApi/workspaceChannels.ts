import { z } from 'zod';
import { empty, type ChannelSchemas } from './requestFields';

/** The open workspace, as the renderer shows it. */
export const WORKSPACE_CHANNELS = {
  'workspace.info': {
    request: empty,
    response: z.object({
      path: z.string(),
      name: z.string(),
      /** How the host is reached; the renderer shows browser-only hints with it. */
      transport: z.enum(['electron', 'websocket']),
      version: z.string(),
    }),
  },
} as const satisfies ChannelSchemas;
