import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import type { HostPush } from '../../shared/host-api';
import { createHostService } from '../../runtime/host/createHostService';
import type { HostService } from '../../runtime/host/hostService';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';

/**
 * `chat.send` (the chat pane): one agent answers alone, with its tools, as a small run of its own —
 * on the real openai SDK against the scripted server — and a kept conversation is scored by a test.
 */
let server: ScriptedServer;
let workspace: string | undefined;
const hosts: HostService[] = [];

type Message = { role: string; content: string | null };
const lastOf = (body: { messages: Message[] }) => body.messages[body.messages.length - 1];

beforeAll(async () => {
  server = await startScriptedServer();
  server.setHandler((body) => {
    const messages = body.messages as Message[];
    const system = messages[0]?.content ?? '';
    if (system.includes('kept as the right one')) return { content: '{"score": 9, "reason": "It gives the same product."}' };
    const last = lastOf(body as { messages: Message[] });
    if (last!.role === 'tool') return { content: `The product is ${last!.content}.` };
    if (system.startsWith('You are Analyst.') && String(last!.content).includes('latest message')) return { toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }] };
    if (system.startsWith('You are Poet.')) return { content: 'Roses, in one line.' };
    return undefined;
  });
});
afterAll(() => server.close());
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

const CREW = {
  kind: 'crew',
  version: 1,
  id: 'numbers',
  name: 'Numbers',
  inputs: [{ name: 'topic', default: 'sums' }],
  agents: [
    { id: 'analyst', role: 'Analyst', goal: 'Work out {topic} exactly', llm: 'srv', tools: [{ tool: 'calculator' }] },
    { id: 'writer', role: 'Writer', goal: 'Write it up', llm: 'srv' },
  ],
  tasks: [
    { id: 'work', description: 'Work it out.', expectedOutput: 'A number', agentId: 'analyst' },
    { id: 'write', description: 'Write it up.', expectedOutput: 'A line', agentId: 'writer' },
  ],
};

function open(crew: object = CREW) {
  workspace = mkdtempSync(join(tmpdir(), 'crewdeck-hostchat-'));
  writeFileSync(join(workspace, 'crewdeck.json'), JSON.stringify({ version: 1, models: { profiles: { srv: { provider: 'openai', model: 'house-model', baseUrl: server.baseUrl } } } }));
  writeFileSync(join(workspace, 'numbers.crew.json'), JSON.stringify(crew));
  const host = createHostService({ workspace, transport: 'websocket', env: {} });
  hosts.push(host);
  const events: RuntimeEvent[] = [];
  const waiters: { done: (e: RuntimeEvent) => boolean; resolve: () => void }[] = [];
  host.subscribe((p: HostPush) => {
    if (p.kind !== 'event') return;
    events.push(p.event);
    for (const w of waiters.splice(0)) if (w.done(p.event)) w.resolve();
    else waiters.push(w);
  });
  /** Resolves once an event matching `done` has been pushed (at once if it already was). */
  const pushed = (done: (e: RuntimeEvent) => boolean) =>
    events.some(done) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ done, resolve }));
  const call = async (channel: string, request: unknown = {}) => {
    const result = await host.handle(channel, request);
    if (!result.ok) throw Object.assign(new Error(`${channel}: ${result.error.code}: ${result.error.message}`), { code: result.error.code });
    return result.response as any;
  };
  /** Resolves with the run's events once its end has been pushed. */
  const ended = async (runId: string): Promise<RuntimeEvent[]> => {
    await pushed((e) => e.runId === runId && (e.type === 'run.completed' || e.type === 'run.failed' || e.type === 'run.cancelled'));
    return events.filter((e) => e.runId === runId);
  };
  return { call, ended, pushed, events, dir: workspace };
}

describe('chat.send', () => {
  it('answers as one agent alone, with its tool call in its own run, the chat text never read as placeholders', async () => {
    const { call, ended } = open();
    server.requests.length = 0;
    const { runId } = await call('chat.send', {
      path: 'numbers.crew.json',
      agentId: 'analyst',
      history: [
        { role: 'user', text: 'Hello there' },
        { role: 'agent', text: 'Hi, I compute things.' },
      ],
      message: 'What is 6 times 7? Keep {topic} and {nobody} as they are.',
    });
    const events = await ended(runId);
    const started = events.find((e) => e.type === 'run.started');
    expect(started).toMatchObject({ purpose: { kind: 'chat', agentId: 'analyst', role: 'Analyst' } });
    expect(events.find((e) => e.type === 'tool.started')).toMatchObject({ tool: 'calculator', args: { expression: '6 * 7' } });
    expect(events.find((e) => e.type === 'tool.completed')).toMatchObject({ tool: 'calculator', result: '42' });
    expect(events.find((e) => e.type === 'run.completed')).toMatchObject({ output: 'The product is 42.' });
    // Only the chosen agent ran: one task, no Writer.
    expect(events.filter((e) => e.type === 'task.started').map((e) => (e as { agentRole: string }).agentRole)).toEqual(['Analyst']);
    const prompt = String(server.requests[0]!.body.messages.at(-1).content);
    expect(prompt).toContain('Person: Hello there\nYou: Hi, I compute things.');
    expect(prompt).toContain('What is 6 times 7? Keep {topic} and {nobody} as they are.');
    // The agent's own placeholders are filled from the crew's defaults.
    expect(String(server.requests[0]!.body.messages[0].content)).toContain('Work out sums exactly');
    expect(server.requests.every((r) => !String(r.body.messages[0].content).startsWith('You are Writer.'))).toBe(true);
  });

  it('names the agents when asked for one the crew does not have, and refuses an empty message', async () => {
    const { call } = open();
    await expect(call('chat.send', { path: 'numbers.crew.json', agentId: 'ghost', message: 'hi' })).rejects.toThrow(/bad_input: .*no agent with id "ghost" \(its agents: analyst, writer\)/);
    // A path outside the workspace is refused like any document path.
    await expect(call('chat.send', { path: '../numbers.crew.json', agentId: 'analyst', message: 'hi' })).rejects.toThrow(/bad_input|invalid_request/);
    await expect(call('chat.send', { path: 'numbers.crew.json', agentId: 'analyst', message: '   ' })).rejects.toThrow(/invalid_request: .*message: must not be empty/);
  });

  it("talks to a flow's agent method by its id", async () => {
    const { call, ended, dir } = open();
    writeFileSync(
      join(dir, 'poem.flow.json'),
      JSON.stringify({
        kind: 'flow',
        version: 1,
        id: 'poem',
        name: 'Poem',
        methods: [{ id: 'verse', name: 'verse', trigger: { start: true }, body: { type: 'agent', agent: { role: 'Poet', goal: 'Write verse', llm: 'srv' }, prompt: 'Write about {state.topic}' } }],
      }),
    );
    const { runId } = await call('chat.send', { path: 'poem.flow.json', agentId: 'verse', message: 'A line about roses?' });
    const events = await ended(runId);
    expect(events.find((e) => e.type === 'run.completed')).toMatchObject({ output: 'Roses, in one line.' });
    await expect(call('chat.send', { path: 'poem.flow.json', agentId: 'nope', message: 'hi' })).rejects.toThrow(/no agent method "nope" \(its agent methods: verse\)/);
  });
});

describe('kept conversations', () => {
  const KEPT = {
    ...CREW,
    conversations: [
      {
        id: 'product',
        agentId: 'analyst',
        name: 'Six times seven',
        turns: [
          { role: 'user', text: 'What is 6 times 7?' },
          { role: 'agent', text: 'The product is 42.' },
        ],
      },
    ],
  };

  it('are checked: their agent must exist, and they end with the reply kept for a user turn', async () => {
    const { call } = open();
    const broken = { ...KEPT, conversations: [{ ...KEPT.conversations[0], agentId: 'ghost' }, { id: 'half', agentId: 'analyst', name: 'Half', turns: [{ role: 'agent', text: 'a' }, { role: 'user', text: 'b' }] }] };
    const { problems } = await call('documents.validate', { document: broken });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'conversations.0.agentId', message: 'no agent with id "ghost"' }),
        expect.objectContaining({ path: 'conversations.1.turns', message: expect.stringContaining('must end with a user turn') }),
      ]),
    );
    expect((await call('documents.validate', { document: KEPT })).problems).toEqual([]);
  });

  it("are replayed by a crew test and scored against the kept reply, after the crew's tasks", async () => {
    const { call, pushed, dir } = open(KEPT);
    const { testId } = await call('tests.start', { path: 'numbers.crew.json', iterations: 1 });
    await pushed((e) => (e.type === 'test.completed' || e.type === 'test.failed') && e.sessionId === testId);
    const report = await call('tests.get', { testId });
    expect(report.session.status).toBe('completed');
    const row = report.tasks.find((t: { taskId: string }) => t.taskId === 'conversation:product');
    expect(row).toMatchObject({ role: 'Analyst', scores: [9], averageScore: 9 });
    expect(report.tasks.map((t: { taskId: string }) => t.taskId).at(-1)).toBe('conversation:product');
    const judged = server.requests.filter((r) => String(r.body.messages[0].content).includes('kept as the right one')).map((r) => String(r.body.messages[1].content));
    expect(judged.at(-1)).toContain('Kept reply:\nThe product is 42.');
    expect(judged.at(-1)).toContain('Person: What is 6 times 7?');
    // The document on disk is unchanged by the test.
    expect(JSON.parse(readFileSync(join(dir, 'numbers.crew.json'), 'utf8')).conversations).toHaveLength(1);
  });
});
