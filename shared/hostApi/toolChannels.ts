import { z } from 'zod';
import { empty, type ChannelSchemas } from './requestFields';

export const TOOL_CHANNELS = {
  /**
   * Tools documents may use: the built-ins and the tools of the workspace's MCP servers (each server
   * is started, asked for its tools and stopped). A server that cannot start is listed with its error.
   */
  'tools.list': {
    request: empty,
    response: z.object({
      tools: z.array(
        z.object({
          /** As documents name it: `read_file`, `mcp:<server>/<tool>`. */
          name: z.string(),
          description: z.string(),
          parameters: z.record(z.string(), z.unknown()),
          source: z.enum(['builtin', 'mcp']),
          server: z.string().optional(),
        }),
      ),
      servers: z.array(z.object({ name: z.string(), toolCount: z.number(), error: z.string().optional() })),
    }),
  },
} as const satisfies ChannelSchemas;
