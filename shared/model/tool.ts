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
  /**
   * Tool-specific settings. `allowDocumentWrites: true` lets file-writing tools change the workspace's
   * documents (crewdeck.json, crews, flows, their skill and knowledge files); never `.git/` or `.crewdeck/`.
   */
  config: z
    .record(z.string(), z.unknown())
    .refine((c) => c.allowDocumentWrites === undefined || typeof c.allowDocumentWrites === 'boolean', {
      message: 'allowDocumentWrites must be true or false',
      path: ['allowDocumentWrites'],
    })
    .optional(),
  maxUsageCount: z.number().int().positive().optional(),
  resultAsAnswer: z.boolean().default(false),
  requiresApproval: z.boolean().default(false),
});
export type ToolRef = z.infer<typeof ToolRefSchema>;
