import { CrewDocumentSchema, type CrewDocument } from '../shared/model/crew';

/**
 * The crews the runtime benchmark runs. Every model is `scripted` with an inline script and no
 * `delayMs`, so a model call costs only the provider's own bookkeeping: the wall time of a run is
 * framework time (prompting, tool gate, guardrails, events, SQLite) by construction.
 */

function scripted(model: string, script: Record<string, unknown>) {
  return { provider: 'scripted' as const, model, script };
}

/** Distinct expressions, so the policy gate's per-run cache does not turn calls into cache hits. */
function calculatorCalls(count: number) {
  return Array.from({ length: count }, (_, k) => ({
    content: '',
    toolCalls: [{ name: 'calculator', arguments: { expression: `${k + 2} * (${k} + 7) / 4 + 0.5` } }],
  }));
}

export interface SequentialOptions {
  tasks: number;
  /** 'previous': each task reads only the task before it; 'all': CrewAI's default (every earlier output). */
  context: 'previous' | 'all';
}

/** What a sequential run is expected to do, checked after every run so the bench cannot silently measure a broken path. */
export interface Expectations {
  tasks: number;
  toolCalls: number;
  guardrailRetries: number;
  delegations: number;
}

/**
 * A research → analysis → writing pipeline repeated to `tasks` tasks:
 *   i % 4 = 0  Researcher calls the calculator, then answers (2 model calls, 1 tool call)
 *   i % 4 = 1  Analyst answers directly (tools offered, none used)
 *   i % 4 = 2  Writer answers; guardrails contains "DONE" and length ≤ 4000; every 5th writer task
 *              also needs /\bAPPROVED\b/, which the first answer misses: one retry with the failure note
 *   i % 4 = 3  Analyst answers directly
 */
export function sequentialCrew(options: SequentialOptions): { doc: CrewDocument; expect: Expectations } {
  const { tasks: count } = options;
  const researcherTasks = Math.ceil(count / 4);
  const researcher = scripted('bench-researcher', {
    rules: [
      { when: { lastRole: 'user' }, reply: calculatorCalls(researcherTasks) },
      {
        when: { lastRole: 'tool' },
        reply: 'Worked figure: the calculator result above, rounded to two places. Source: the quarterly notes, checked twice.',
      },
    ],
  });
  const analyst = scripted('bench-analyst', {
    default: 'Analysis: the figure is within the expected band; the trend is flat quarter on quarter and the risk is low.',
  });
  const writer = scripted('bench-writer', {
    rules: [
      {
        when: { last: 'was rejected' },
        reply: 'Summary for the team: numbers checked, trend flat, risk low. APPROVED by the writer after review. DONE',
      },
    ],
    default: 'Summary for the team: numbers checked, trend flat, risk low. Ready for review. DONE',
  });

  const agents = [
    { id: 'researcher', role: 'Researcher', goal: 'Find and compute the key figures', backstory: 'You check every number with the calculator.', llm: researcher, tools: [{ tool: 'calculator' }] },
    { id: 'analyst', role: 'Analyst', goal: 'Interpret the figures', backstory: 'You explain what numbers mean for the business.', llm: analyst, tools: [{ tool: 'calculator' }] },
    { id: 'writer', role: 'Writer', goal: 'Write short summaries for busy readers', backstory: 'Short sentences, numbers first.', llm: writer },
  ];

  let toolCalls = 0;
  let guardrailRetries = 0;
  const tasks = Array.from({ length: count }, (_, i) => {
    const kind = i % 4;
    const id = `t${String(i + 1).padStart(3, '0')}`;
    const context = options.context === 'previous' && i > 0 ? { context: [`t${String(i).padStart(3, '0')}`] } : {};
    if (kind === 0) {
      toolCalls++;
      return { id, description: `Step ${i + 1}: compute the figure for segment ${i + 1} with the calculator.`, expectedOutput: 'The figure with the arithmetic.', agentId: 'researcher', ...context };
    }
    if (kind === 2) {
      const strict = Math.floor(i / 4) % 5 === 0;
      if (strict) guardrailRetries++;
      const guardrails: Record<string, unknown>[] = [
        { type: 'contains', text: 'DONE' },
        { type: 'length', max: 4000 },
      ];
      if (strict) guardrails.push({ type: 'regex', pattern: '\\bAPPROVED\\b' });
      return { id, description: `Step ${i + 1}: summarise segment ${i + 1} for the team.`, expectedOutput: 'Two sentences ending with DONE.', agentId: 'writer', guardrails, ...context };
    }
    return { id, description: `Step ${i + 1}: interpret the figure for segment ${i + 1}.`, expectedOutput: 'One sentence of analysis.', agentId: 'analyst', ...context };
  });

  const doc = CrewDocumentSchema.parse({
    kind: 'crew',
    version: 1,
    id: `bench-sequential-${count}`,
    name: `Bench: sequential, ${count} tasks`,
    process: 'sequential',
    agents,
    tasks,
  });
  return { doc, expect: { tasks: count, toolCalls, guardrailRetries, delegations: 0 } };
}

const COWORKERS = [
  { id: 'analyst', role: 'Market Analyst', tag: 'pricing' },
  { id: 'copywriter', role: 'Copywriter', tag: 'copy' },
  { id: 'reviewer', role: 'Reviewer', tag: 'review' },
] as const;

/**
 * A built-in manager runs every task: it delegates it (delegate_work) to the assigned coworker, then
 * answers with the coworker's result. The Market Analyst uses the calculator before answering; the
 * others answer directly. Each task has a length guardrail on the manager's final answer.
 */
export function hierarchicalCrew(count: number): { doc: CrewDocument; expect: Expectations } {
  const managerRules = [
    ...COWORKERS.map((c) => ({
      when: { lastRole: 'user', last: `/^Current task: \\[${c.tag}\\]/` },
      reply: {
        content: '',
        toolCalls: [
          {
            name: 'delegate_work',
            arguments: { coworker: c.role, task: `Do the ${c.tag} work for this step and report the result.`, context: 'The crew is preparing a product launch; be brief.' },
          },
        ],
      },
    })),
    { when: { lastRole: 'tool' }, reply: 'Final answer: the coworker delivered the work, I checked it, and it is ready to ship.' },
  ];
  const analystTasks = Math.ceil(count / COWORKERS.length);
  const models: Record<string, ReturnType<typeof scripted>> = {
    analyst: scripted('bench-market-analyst', {
      rules: [
        { when: { lastRole: 'user' }, reply: calculatorCalls(analystTasks) },
        { when: { lastRole: 'tool' }, reply: 'The price works out to the calculator result above per year.' },
      ],
    }),
    copywriter: scripted('bench-copywriter', { default: 'Launch copy: draw your crew, run it, watch every step.' }),
    reviewer: scripted('bench-reviewer', { default: 'Review: accurate, clear and on brand. Approved.' }),
  };
  const agents = COWORKERS.map((c) => ({
    id: c.id,
    role: c.role,
    goal: `Do the ${c.tag} work you are given`,
    backstory: 'You are good at your job and brief.',
    llm: models[c.id],
    tools: c.id === 'analyst' ? [{ tool: 'calculator' }] : [],
  }));
  let toolCalls = 0;
  const tasks = Array.from({ length: count }, (_, i) => {
    const c = COWORKERS[i % COWORKERS.length];
    if (c!.id === 'analyst') toolCalls++;
    return {
      id: `h${String(i + 1).padStart(2, '0')}`,
      description: `[${c!.tag}] Step ${i + 1} of the launch: get the ${c!.tag} work done.`,
      expectedOutput: 'The checked result.',
      agentId: c!.id,
      guardrails: [{ type: 'length', min: 10 }],
    };
  });
  const doc = CrewDocumentSchema.parse({
    kind: 'crew',
    version: 1,
    id: `bench-hierarchical-${count}`,
    name: `Bench: hierarchical, ${count} tasks`,
    process: 'hierarchical',
    manager: { llm: scripted('bench-manager', { rules: managerRules }) },
    agents,
    tasks,
  });
  return { doc, expect: { tasks: count, toolCalls, guardrailRetries: 0, delegations: count } };
}
