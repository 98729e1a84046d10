import { z } from 'zod';

export const BUILTIN_TOOLS = [
  'read_file',
  'write_file',
  'list_directory',
  'http_request',
  'calculator',
  'current_time',
  'search_memory',
  'save_memory',
] as const;
/** Tools that need the crew's memory (`memory.enabled`) and an agent that uses it. */
export const MEMORY_TOOLS: readonly string[] = ['search_memory', 'save_memory'];
export type BuiltinToolName = (typeof BUILTIN_TOOLS)[number];

export const ToolRefSchema = z.strictObject({
  tool: z.string().min(1),
  config: z.record(z.string(), z.unknown()).optional(),
  maxUsageCount: z.number().int().positive().optional(),
  resultAsAnswer: z.boolean().default(false),
  requiresApproval: z.boolean().default(false),
});
export type ToolRef = z.infer<typeof ToolRefSchema>;
