import type { CrewDraft } from '../../../renderer/commands/crewDraft';

/** A valid sequential crew: two agents, three tasks (the third reads the first two), with a layout. */
export function sequentialCrew(): CrewDraft {
  return {
    kind: 'crew',
    version: 1,
    id: 'research-brief',
    name: 'Research brief',
    process: 'sequential',
    agents: [
      { id: 'researcher', role: 'Researcher', goal: 'Find facts', backstory: 'Careful.', tools: [{ tool: 'read_file' }, { tool: 'calculator' }] },
      { id: 'writer', role: 'Writer', goal: 'Write briefs', llm: { provider: 'scripted', model: 'demo' } },
    ],
    tasks: [
      { id: 'research', name: 'Gather the facts', description: 'Read the notes.', expectedOutput: 'Facts.', agentId: 'researcher' },
      { id: 'outline', description: 'Outline the brief.', expectedOutput: 'An outline.', agentId: 'writer', context: 'none' },
      {
        id: 'brief',
        name: 'Write the brief',
        description: 'Write it.',
        expectedOutput: 'Three sentences.',
        agentId: 'writer',
        context: ['research', 'outline'],
        humanInput: true,
        guardrails: [{ type: 'contains', text: 'SHIP IT' }, { type: 'length', max: 600 }],
      },
    ],
    layout: {
      'task:research': { x: 0, y: 0 },
      'task:outline': { x: 0, y: 150 },
      'task:brief': { x: 0, y: 300 },
      'agent:researcher': { x: 400, y: 0 },
      'agent:writer': { x: 400, y: 150 },
    },
  };
}

/** A hierarchical crew with the built-in manager and no layout. */
export function hierarchicalCrew(): CrewDraft {
  return {
    kind: 'crew',
    version: 1,
    id: 'launch',
    name: 'Launch',
    process: 'hierarchical',
    manager: { llm: { provider: 'scripted', model: 'demo-manager' } },
    agents: [
      { id: 'analyst', role: 'Analyst', goal: 'Price it', tools: [{ tool: 'calculator' }] },
      { id: 'copywriter', role: 'Copywriter', goal: 'Write copy' },
    ],
    tasks: [
      { id: 'pricing', description: 'Price.', expectedOutput: 'A price.', agentId: 'analyst' },
      { id: 'announce', description: 'Announce.', expectedOutput: 'Copy.', agentId: 'copywriter', context: ['pricing'] },
    ],
  };
}
