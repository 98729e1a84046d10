import { z } from 'zod';
import { toolConfigProblems } from './toolConfig';

export const BUILTIN_TOOLS = [
  'read_file',
  'write_file',
  'list_directory',
  'http_request',
  'calculator',
  'current_time',
  'search_memory',
  'save_memory',
  'web_search',
  'scrape_website',
  'website_search',
  'file_search',
] as const;
/** Tools that need the crew's memory (`memory.enabled`) and an agent that uses it. */
export const MEMORY_TOOLS: readonly string[] = ['search_memory', 'save_memory'];
export type BuiltinToolName = (typeof BUILTIN_TOOLS)[number];

export const ToolRefSchema = z
  .strictObject({
    tool: z.string().min(1),
    /** Tool-specific settings; a built-in tool's are checked against its schema (toolConfig.ts). */
    config: z.record(z.string(), z.unknown()).optional(),
    /** The name the model sees instead of the tool's own (CrewAI's `name=`). */
    name: z.string().trim().min(1).max(100).optional(),
    /** The description the model sees instead of the tool's own (CrewAI's `description=`). */
    description: z.string().trim().min(1).max(4000).optional(),
    maxUsageCount: z.number().int().positive().optional(),
    resultAsAnswer: z.boolean().default(false),
    requiresApproval: z.boolean().default(false),
  })
  .superRefine((ref, ctx) => {
    for (const problem of toolConfigProblems(ref.tool, ref.config)) ctx.addIssue({ code: 'custom', path: ['config', ...problem.path], message: problem.message });
  });
export type ToolRef = z.infer<typeof ToolRefSchema>;
