import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent, ToolApprovalDecision } from '../../shared/events';
import { FlowDocumentSchema } from '../../shared/model/flow';
import { WorkspaceSettingsSchema } from '../../shared/model/workspace';
import { UsageMeter } from '../../runtime/agent/usageMeter';
import { assignTask } from '../../runtime/crew/assignTask';
import { crewContext, prepareCrew, type CrewDeps, type PreparedCrew } from '../../runtime/crew/executeCrew';
import { RunEventLog } from '../../runtime/events/span';
import type { HumanChannel, ToolApprovalRequest } from '../../runtime/human/humanChannel';
import { ModelResolver } from '../../runtime/llm/resolveModel';
import { McpServers, type McpRunSession } from '../../runtime/mcp/mcpServers';
import type { MemoryStore } from '../../runtime/memory/memoryStore';
import { openWorkspaceMemory } from '../../runtime/memory/workspaceMemory';
import { PolicyGate, type BeforeToolHook, type ToolOutcome, type ToolUse } from '../../runtime/tools/policyGate';
import { createRuntime } from '../../runtime/runtime';
import { createBuiltinRegistry, type ToolRegistry } from '../../runtime/tools/registry';
import { crew, ofType, scripted, tempWorkspace } from '../support/crewHarness';
import { ScriptedHuman } from '../support/scriptedHuman';

/**
 * The gate's promise, kind by kind: every tool an agent can be handed — a built-in, the delegation
 * tools, the memory tools, load_skill and an MCP server's tool — goes through the same checks. Each
 * tool here is the real one, made by the code that makes it for a run (the roster, the delegation
 * tools, the MCP session), and called the way the executor calls it: through the run's gate.
 */

const FLAKY_SERVER = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/mcp/flakyServer.mjs');

interface Kind {
  tool: string;
  /** Two different good calls (the usage row needs a second call that is not a cache hit). */
  good: [Record<string, unknown>, Record<string, unknown>];
  bad: Record<string, unknown>;
}

const KINDS: Kind[] = [
  { tool: 'calculator', good: [{ expression: '2 + 2' }, { expression: '3 * 3' }], bad: { expression: 42 } },
  { tool: 'delegate_work', good: [{ task: 'Check the roof', coworker: 'Helper' }, { task: 'Check the inverter', coworker: 'Helper' }], bad: { task: 'Check the roof' } },
  { tool: 'ask_question', good: [{ question: 'Which way does the roof face?', coworker: 'Helper' }, { question: 'How old is it?', coworker: 'Helper' }], bad: { coworker: 'Helper' } },
  { tool: 'save_memory', good: [{ content: 'The roof faces south' }, { content: 'The inverter is new' }], bad: { content: 7 } },
  { tool: 'search_memory', good: [{ queries: ['roof'] }, { queries: ['inverter'] }], bad: { query: 'roof' } },
  { tool: 'load_skill', good: [{ name: 'triage' }, { name: 'pricing' }], bad: {} },
  { tool: 'mcp:flaky/echo', good: [{ text: 'one' }, { text: 'two' }], bad: { text: ['not', 'a', 'string'] } },
];

/** Answers approval requests from a list and records them; a request with no answer left fails the call. */
class ListHuman implements HumanChannel {
  readonly requests: ToolApprovalRequest[] = [];
  constructor(private readonly answers: ToolApprovalDecision[]) {}
  async reviewTask(): Promise<string> {
    return '';
  }
  async approveTool(request: ToolApprovalRequest): Promise<ToolApprovalDecision> {
    this.requests.push(request);
    const answer = this.answers.shift();
    if (!answer) throw new Error(`asked again about "${request.tool}"`);
    return answer;
  }
}

let ws: ReturnType<typeof tempWorkspace>;
let memory: MemoryStore;
let session: McpRunSession;
let registry: ToolRegistry;

beforeAll(async () => {
  ws = tempWorkspace('crewdeck-gate-table-');
  memory = await openWorkspaceMemory(ws.dir, { settings: undefined, env: {} });
  const settings = WorkspaceSettingsSchema.parse({ version: 1, mcp: { servers: { flaky: { transport: 'stdio', command: process.execPath, args: [FLAKY_SERVER] } } } });
  session = new McpServers(settings.mcp, { workspace: ws.dir, env: {} }).session();
  registry = await session.registryFor(createBuiltinRegistry(), ['flaky']);
}, 60_000);

afterAll(async () => {
  await session?.close();
  await memory?.close();
  ws?.remove();
});

const DOC = crew({
  memory: { enabled: true, commit: 'immediate' },
  agents: [
    {
      id: 'lead',
      role: 'Lead',
      goal: 'get the survey done',
      allowDelegation: true,
      skills: [
        { name: 'triage', description: 'sort findings', instructions: 'Sort the findings by urgency.' },
        { name: 'pricing', description: 'price the work', instructions: 'Price each item.' },
      ],
      tools: [{ tool: 'calculator' }, { tool: 'save_memory' }, { tool: 'search_memory' }, { tool: 'mcp:flaky/echo' }],
      llm: scripted({ default: 'Done.' }),
    },
    { id: 'helper', role: 'Helper', goal: 'help the lead', llm: scripted({ default: 'Helped: the roof faces south.' }) },
  ],
  tasks: [{ id: 'survey', description: 'Survey the house', expectedOutput: 'a survey', agentId: 'lead' }],
});

/**
 * One run: its gate, and the tools of the task as two flow methods would each get them (each method
 * makes its own crew context from the run, as flow bodies do).
 */
function openRun(options: { before?: BeforeToolHook[]; answers?: ToolApprovalDecision[] } = {}) {
  const human = new ListHuman(options.answers ?? []);
  const deps: CrewDeps = { workspace: ws.dir, models: new ModelResolver({ env: {}, baseDir: ws.dir }), tools: registry, human, memory };
  const log = new RunEventLog('run-gate', Date.now);
  const events: RuntimeEvent[] = [];
  log.listen((e) => events.push(e));
  const root = log.root();
  let counter = 0;
  const newId = (prefix: string) => `run-gate:${prefix}${++counter}`;
  const gate = new PolicyGate({ workspace: ws.dir, human, before: options.before, newRequestId: () => newId('h') });
  const controller = new AbortController();
  const method = (crewPart: PreparedCrew) => {
    const ctx = crewContext(crewPart, deps, { runId: 'run-gate', signal: controller.signal, meter: new UsageMeter(), root, newId, gate });
    const assignment = assignTask({ ctx, doc: crewPart.doc, roster: crewPart.roster, taskTools: crewPart.taskTools, models: deps.models }, crewPart.doc.tasks[0]!, 0, '');
    return (tool: string, args: Record<string, unknown>, policy: Partial<ToolUse> = {}): Promise<ToolOutcome> => {
      const use = assignment.tools.find((u) => u.tool.name === tool);
      if (!use) throw new Error(`the task was not handed "${tool}" (it has ${assignment.tools.map((u) => u.tool.name).join(', ')})`);
      return ctx.gate.call({ use: { ...use, ...policy }, args, callId: newId('call'), agentRole: 'Lead', taskId: 'survey', cache: true, memory: ctx.memory }, root, controller.signal);
    };
  };
  const methods = [method(prepareCrew(DOC, {}, deps, 'method one')), method(prepareCrew(DOC, {}, deps, 'method two'))];
  return { human, events, methods, blocked: () => events.filter((e) => e.type === 'tool.blocked') };
}

describe('the policy gate holds for every kind of tool', () => {
  describe.each(KINDS)('$tool', ({ tool, good, bad }) => {
    it('a before-hook blocks it', async () => {
      const seen: string[] = [];
      const run = openRun({ before: [(call) => (seen.push(call.tool), call.tool === tool ? { block: 'not on this job' } : undefined)] });
      const [call] = run.methods;
      const outcome = await call!(tool, good[0]);
      expect(outcome).toMatchObject({ status: 'blocked', observation: 'Tool call blocked: not on this job' });
      expect(seen).toEqual([tool]);
      expect(run.blocked()).toMatchObject([{ tool, by: 'hook' }]);
      expect(run.events.some((e) => e.type === 'tool.completed')).toBe(false);
    });

    it('approval can deny it', async () => {
      const run = openRun({ answers: ['deny'] });
      const outcome = await run.methods[0]!(tool, good[0], { requiresApproval: true });
      expect(outcome.status).toBe('blocked');
      expect(outcome.observation).toContain('denied permission');
      expect(run.human.requests.map((r) => r.tool)).toEqual([tool]);
      expect(run.blocked()).toMatchObject([{ tool, by: 'approval' }]);
    });

    it('maxUsageCount stops the second call', async () => {
      const run = openRun();
      const first = await run.methods[0]!(tool, good[0], { maxUsageCount: 1 });
      expect(first.status, first.observation).toBe('completed');
      const second = await run.methods[0]!(tool, good[1], { maxUsageCount: 1 });
      expect(second.status).toBe('blocked');
      expect(second.observation).toContain('usage limit');
      expect(run.blocked()).toMatchObject([{ tool, by: 'usage_limit' }]);
    });

    it('bad arguments fail validation', async () => {
      const run = openRun();
      const outcome = await run.methods[0]!(tool, bad);
      expect(outcome.status).toBe('failed');
      expect(outcome.observation).toContain('the arguments do not match its parameters');
      expect(run.events.filter((e) => e.type === 'tool.failed')).toMatchObject([{ tool, error: expect.stringMatching(/^invalid arguments: /) }]);
    });

    it('in a flow, "always allow" given in method 1 holds in method 2', async () => {
      const run = openRun({ answers: ['always'] });
      const [methodOne, methodTwo] = run.methods;
      const first = await methodOne!(tool, good[0], { requiresApproval: true });
      expect(first.status, first.observation).toBe('completed');
      const second = await methodTwo!(tool, good[1], { requiresApproval: true });
      expect(second.status, second.observation).toBe('completed');
      expect(run.human.requests).toHaveLength(1);
    });
  });
});

describe('one gate per flow run', () => {
  it('a flow with two agent methods using a tool that requires approval asks once when the user answers "always"', async () => {
    const flowWs = tempWorkspace('crewdeck-gate-flow-');
    try {
      const human = new ScriptedHuman([], ['always']);
      const agent = (role: string, expression: string) => ({
        role,
        goal: 'count',
        tools: [{ tool: 'calculator', requiresApproval: true }],
        llm: scripted({ rules: [{ when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'calculator', arguments: { expression } }] } }, { when: { lastRole: 'tool' }, reply: 'Counted.' }] }),
      });
      const doc = FlowDocumentSchema.parse({
        kind: 'flow',
        version: 1,
        id: 'counting',
        name: 'Counting',
        methods: [
          { id: 'first', name: 'first', trigger: { start: true }, body: { type: 'agent', agent: agent('First counter', '2 + 2'), prompt: 'Count the panels' } },
          { id: 'second', name: 'second', trigger: { listen: 'first' }, body: { type: 'agent', agent: agent('Second counter', '3 * 3'), prompt: 'Count the inverters' } },
        ],
      });
      const events: RuntimeEvent[] = [];
      const result = await createRuntime({ workspace: flowWs.dir, store: flowWs.store, human }).runFlow(doc, { onEvent: (e) => events.push(e) });
      expect(result.status, JSON.stringify(result.error)).toBe('completed');
      expect(human.approvals.map((a) => a.agentRole)).toEqual(['First counter']);
      expect(ofType(events, 'human.requested').filter((e) => e.kind === 'tool_approval')).toHaveLength(1);
      expect(ofType(events, 'tool.completed').map((e) => e.result)).toEqual(['4', '9']);
    } finally {
      flowWs.remove();
    }
  }, 30_000);
});
