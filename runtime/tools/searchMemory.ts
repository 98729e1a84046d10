import { defineTool, ToolError } from './tool';

export const searchMemoryTool = defineTool({
  name: 'search_memory',
  description:
    "Search the crew's long-term memory (facts, decisions and lessons from earlier work). Give one or more queries; " +
    'each returns the best matching memories with a relevance score.',
  parameters: {
    type: 'object',
    properties: {
      queries: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, maxItems: 5, description: 'What to look for, one query per topic.' },
      limit: { type: 'integer', minimum: 1, maximum: 20, description: 'Memories per query (default 5, at most 20).' },
    },
    required: ['queries'],
    additionalProperties: false,
  },
  async execute(args, ctx) {
    if (!ctx.memory) throw new ToolError('memory is not enabled for this crew, so there is nothing to search');
    const results = await ctx.memory.search(args.queries as string[], (args.limit as number | undefined) ?? 5);
    return results
      .map(({ query, results: found }) =>
        found.length === 0
          ? `Query "${query}": no memories found.`
          : `Query "${query}":\n${found.map((m) => `- (${m.score.toFixed(2)}) ${m.content} [${m.id}]`).join('\n')}`,
      )
      .join('\n\n');
  },
});
