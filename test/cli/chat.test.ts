import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeResult, runCli, runEvents, tempDir, type TempWorkspace } from './cliHarness';

let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

const scripted = (rules: unknown[], fallback: string) => ({ provider: 'scripted', model: 'demo', script: { rules, default: fallback } });
const crew = {
  kind: 'crew',
  version: 1,
  id: 'numbers',
  name: 'Numbers',
  agents: [
    {
      id: 'analyst',
      role: 'Analyst',
      goal: 'Compute',
      backstory: 'Careful.',
      tools: [{ tool: 'calculator' }],
      llm: scripted(
        [
          { when: { lastRole: 'user', last: 'latest message:\nWhat is 6 times 7?' }, reply: { content: '', toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }] } },
          { when: { lastRole: 'tool' }, reply: 'Six times seven is 42.' },
          { when: { lastRole: 'user', last: 'Six times seven is 42.' }, reply: 'You asked me about 6 times 7 before.' },
        ],
        'Ask me a sum.',
      ),
    },
    { id: 'writer', role: 'Writer', goal: 'Write', backstory: 'Brief.', llm: scripted([], 'Words.') },
  ],
  tasks: [{ id: 'work', description: 'Work out 6 times 7.', expectedOutput: 'A number', agentId: 'analyst' }],
};

describe('crewdeck chat', () => {
  it('talks to one agent a line at a time: each reply its own run, the turns so far go with the next', async () => {
    ws = tempDir('crewdeck-cli-chat-');
    const file = ws.write('numbers.crew.json', crew);
    const result = await runCli(['chat', file, '--agent', 'analyst', '--json'], { stdin: 'What is 6 times 7?\n\nWhat did I ask?\n' });
    expect(result.code, describeResult(result)).toBe(0);
    const replies = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(replies.map((r) => [r.message, r.status, r.reply])).toEqual([
      ['What is 6 times 7?', 'completed', 'Six times seven is 42.'],
      ['What did I ask?', 'completed', 'You asked me about 6 times 7 before.'],
    ]);
    expect(replies[0].runId).not.toBe(replies[1].runId);
    const first = await runEvents(ws.dir, replies[0].runId);
    expect(first.find((e) => e.type === 'run.started')).toMatchObject({ purpose: { kind: 'chat', agentId: 'analyst' } });
    expect(first.filter((e) => e.type === 'tool.completed').map((e) => (e as { result: string }).result)).toEqual(['42']);
    // Only the chosen agent ran: the writer's model was never called.
    const second = await runEvents(ws.dir, replies[1].runId);
    expect(second.filter((e) => e.type === 'agent.started').map((e) => (e as { role: string }).role)).toEqual(['Analyst']);
  });

  it('shows the reply and where its trace is; names the agents when --agent is missing or unknown', async () => {
    ws = tempDir('crewdeck-cli-chat-');
    const file = ws.write('numbers.crew.json', crew);
    const said = await runCli(['chat', file, '-a', 'analyst', '-m', 'What is 6 times 7?', '--workspace', ws.dir]);
    expect(said.code, describeResult(said)).toBe(0);
    expect(said.stdout).toContain('Analyst: Six times seven is 42.');
    // The hint works pasted where the command ran: its --workspace (relative or absolute) is this workspace.
    const hint = /trace: crewdeck runs show run_\S+ --workspace (\S+)/.exec(said.stdout);
    expect(hint, said.stdout).not.toBeNull();
    expect(resolve(hint![1]!)).toBe(resolve(ws.dir));

    const missing = await runCli(['chat', file, '-m', 'hi']);
    expect(missing.code, describeResult(missing)).not.toBe(0);
    expect(missing.stderr).toContain('chat needs --agent ID: numbers.crew.json has the agents analyst, writer');
    const unknown = await runCli(['chat', file, '--agent', 'nobody', '-m', 'hi']);
    expect(unknown.code, describeResult(unknown)).toBe(2);
    expect(unknown.stderr).toContain('has no agent with id "nobody" (its agents: analyst, writer)');
  });
});
