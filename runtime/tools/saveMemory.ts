import { defineTool, ToolError } from './tool';

export const saveMemoryTool = defineTool({
  name: 'save_memory',
  description:
    "Save one fact, decision or lesson to the crew's long-term memory so later tasks and runs can recall it. " +
    'Write it self-contained and specific. It is kept once your answer is accepted.',
  parameters: {
    type: 'object',
    properties: {
      content: { type: 'string', minLength: 1, maxLength: 4000, description: 'The memory, one self-contained fact.' },
      categories: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 10, description: 'Topics, e.g. ["pricing"].' },
      importance: { type: 'number', minimum: 0, maximum: 1, description: 'How much it matters, 0..1 (default 0.5).' },
    },
    required: ['content'],
    additionalProperties: false,
  },
  // Writes to the memory: never served from the run's cache, and it invalidates cached results.
  cacheable: false,
  async execute(args, ctx) {
    if (!ctx.memory) throw new ToolError('memory is not enabled for this crew, so nothing can be saved');
    const outcome = await ctx.memory.save(
      { content: args.content as string, categories: args.categories as string[] | undefined, importance: args.importance as number | undefined },
      { agentRole: ctx.agentRole, taskId: ctx.taskId, span: ctx.span },
    );
    return outcome === 'staged'
      ? 'Saved. The memory will be kept once this task\'s output is accepted.'
      : 'Saved to memory.';
  },
});
