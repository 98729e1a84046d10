import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  describeResult,
  parseSingleJson,
  runCli,
  runEvents,
  scriptedCrew,
  showRun,
  tempDir,
  tempExamples,
  type TempWorkspace,
} from './cliHarness';

const BRIEF =
  'On rooftop solar: a 10-panel rooftop system peaks at 4 kW and makes about 18 kWh a day. It costs about 10,400 to install before incentives. The numbers work for most homes: SHIP IT';
const RESEARCH =
  '- 10 panels × 400 W = 4 kW peak.\n- 4 kW × 4.5 sun hours ≈ 18 kWh per day.\n- Installed cost: 4,000 W × 2.60 = 10,400 before incentives.';

let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

describe('crewdeck run --json', () => {
  it('the demo model writes about the inputs it was given (product=Acme, topic=tidal power)', async () => {
    ws = tempExamples();
    const launch = parseSingleJson(await runCli(['run', ws.path('product-launch.crew.json'), '--json', '--input', 'product=Acme'], { cwd: ws.dir }));
    expect(launch.status).toBe('completed');
    expect(launch.output).toMatch(/^Acme is here: /);
    expect(launch.output).not.toContain('Crewdeck Pro');
    const brief = parseSingleJson(await runCli(['run', ws.path('research-brief.crew.json'), '--json', '--input', 'topic=tidal power'], { cwd: ws.dir }));
    expect(brief.output).toMatch(/^On tidal power: /);
  });

  it('prints exactly one JSON result object, exits 0 and writes the outputFile in the workspace', async () => {
    ws = tempExamples();
    const r = await runCli(['run', ws.path('research-brief.crew.json'), '--json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    const body = parseSingleJson(r);

    expect(Object.keys(body).sort()).toEqual(['output', 'runId', 'status', 'tasks', 'tokenUsage']);
    expect(body.runId).toMatch(/^run_/);
    expect(body.status).toBe('completed');
    expect(body.output).toBe(BRIEF);

    expect(body.tasks).toEqual([
      { taskId: 'research', agentRole: 'Researcher', raw: RESEARCH },
      { taskId: 'brief', agentRole: 'Writer', raw: BRIEF },
    ]);
    for (const task of body.tasks) {
      for (const key of Object.keys(task)) expect(['taskId', 'agentRole', 'raw', 'json', 'skipped']).toContain(key);
    }

    const usage = body.tokenUsage;
    // The scripted demo model has no price: no costUsd (not 0), and the model is named instead.
    expect(Object.keys(usage).sort()).toEqual(['cachedPromptTokens', 'completionTokens', 'promptTokens', 'requests', 'totalTokens', 'unpricedModels']);
    expect(usage.costUsd).toBeUndefined();
    expect(usage.unpricedModels.join(' ')).toContain('demo');
    // Researcher: read_file, calculator, calculator, answer; Writer: rejected answer, accepted answer.
    expect(usage.requests).toBe(6);
    expect(usage.promptTokens).toBeGreaterThan(0);
    expect(usage.completionTokens).toBeGreaterThan(0);
    expect(usage.totalTokens).toBe(usage.promptTokens + usage.completionTokens);

    const written = ws.path('out/brief.md');
    expect(existsSync(written), 'outputFile is written inside the temp workspace').toBe(true);
    expect(readFileSync(written, 'utf8').trim()).toBe(BRIEF);
    expect(existsSync(ws.path('.crewdeck/crewdeck.db')), 'the run store lives in the workspace').toBe(true);
    expect(r.stderr).toBe('');
  });
});

describe('crewdeck run --json task records', () => {
  it('carries json for JSON tasks and skipped for a task whose condition is false', async () => {
    ws = tempDir();
    const verdict = '{"verdict":"no","score":2}';
    const file = ws.write(
      'gate.crew.json',
      scriptedCrew({
        agents: [
          {
            id: 'judge',
            role: 'Judge',
            goal: 'Judge ideas',
            llm: { provider: 'scripted', model: 's', script: { rules: [{ when: { last: 'Rate the idea' }, reply: verdict }], default: 'should never be asked' } },
          },
        ],
        tasks: [
          {
            id: 'rate',
            description: 'Rate the idea',
            expectedOutput: 'A verdict',
            agentId: 'judge',
            output: { format: 'json', schema: { type: 'object', required: ['verdict'], properties: { verdict: { type: 'string' }, score: { type: 'number' } } } },
          },
          {
            id: 'build',
            description: 'Build it',
            expectedOutput: 'A plan',
            agentId: 'judge',
            condition: { type: 'json_field', path: 'verdict', op: 'eq', value: 'yes' },
          },
        ],
      }),
    );
    const r = await runCli(['run', file, '--json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    const body = parseSingleJson(r);
    expect(body.status).toBe('completed');
    expect(body.output).toBe(verdict); // the last non-empty raw: the skipped task has none
    expect(body.tasks).toHaveLength(2);
    expect(body.tasks[0]).toEqual({ taskId: 'rate', agentRole: 'Judge', raw: verdict, json: { verdict: 'no', score: 2 } });
    expect(body.tasks[1]).toMatchObject({ taskId: 'build', skipped: true });
    expect(body.tasks[1].json).toBeUndefined();
    expect(body.tokenUsage.requests).toBe(1);
  });
});

describe('crewdeck run inputs', () => {
  const descriptionOf = async (workspace: string, runId: string, taskId: string) => {
    const started = (await runEvents(workspace, runId)).filter((e) => e.type === 'task.started' && e.taskId === taskId);
    expect(started).toHaveLength(1);
    return (started[0] as { description: string }).description;
  };

  it('--input k=v reaches the prompts', async () => {
    ws = tempExamples();
    const r = await runCli(['run', ws.path('research-brief.crew.json'), '--input', 'topic=tidal lagoons', '--json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    const { runId } = parseSingleJson(r);
    expect(await descriptionOf(ws.dir, runId, 'research')).toContain('for tidal lagoons.');
    expect(await descriptionOf(ws.dir, runId, 'brief')).toBe('Write a three-sentence brief about tidal lagoons from the research.');
    expect((await showRun(ws.dir, runId)).inputs).toEqual({ topic: 'tidal lagoons' });
  });

  it('--inputs JSON reaches the prompts, and --input wins over it', async () => {
    ws = tempExamples();
    const crew = ws.path('research-brief.crew.json');
    const a = await runCli(['run', crew, '--inputs', '{"topic":"wind farms"}', '--json'], { cwd: ws.dir });
    expect(a.code, describeResult(a)).toBe(0);
    const runA = parseSingleJson(a).runId;
    expect(await descriptionOf(ws.dir, runA, 'brief')).toContain('about wind farms from');

    const b = await runCli(['run', crew, '--inputs', '{"topic":"wind farms"}', '--input', 'topic=heat pumps', '--json'], { cwd: ws.dir });
    expect(b.code, describeResult(b)).toBe(0);
    const runB = parseSingleJson(b).runId;
    expect(await descriptionOf(ws.dir, runB, 'brief')).toContain('about heat pumps from');
  });

  it('the declared default is used when no input is given', async () => {
    ws = tempExamples();
    const r = await runCli(['run', ws.path('research-brief.crew.json'), '--json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    expect(await descriptionOf(ws.dir, parseSingleJson(r).runId, 'brief')).toContain('about rooftop solar from');
  });

  it('a placeholder with no input and no default exits 2 naming the input', async () => {
    ws = tempDir();
    const file = ws.write(
      'missing.crew.json',
      scriptedCrew({
        agents: [{ id: 'w', role: 'Writer', goal: 'Write', llm: { provider: 'scripted', model: 's', script: { default: 'done' } } }],
        tasks: [{ id: 't', description: 'Write for {audience} today', expectedOutput: 'Text', agentId: 'w' }],
      }),
    );
    const human = await runCli(['run', file], { cwd: ws.dir });
    expect(human.code, describeResult(human)).toBe(2);
    expect(human.stderr).toContain('missing input "audience"');
    expect(human.stdout).not.toContain('completed');

    const json = await runCli(['run', file, '--json'], { cwd: ws.dir });
    expect(json.code, describeResult(json)).toBe(2);
    const body = parseSingleJson(json);
    expect(body.status).not.toBe('completed');
    expect(body.error).toContain('audience');
  });

  it('malformed --inputs JSON and --input without "=" are usage errors (exit 2)', async () => {
    ws = tempExamples();
    const crew = ws.path('research-brief.crew.json');
    const badJson = await runCli(['run', crew, '--inputs', '{topic:'], { cwd: ws.dir });
    expect(badJson.code, describeResult(badJson)).toBe(2);
    expect(badJson.stderr).toContain('--inputs is not valid JSON');
    const badPair = await runCli(['run', crew, '--input', 'topic'], { cwd: ws.dir });
    expect(badPair.code, describeResult(badPair)).toBe(2);
    expect(badPair.stderr).toContain('--input expects name=value');
  });
});

describe('a run whose guardrail always fails', () => {
  it('exits 1 with status failed, the guardrail message, and task.failed + run.failed events', async () => {
    ws = tempDir();
    const file = ws.write(
      'stubborn.crew.json',
      scriptedCrew({
        agents: [{ id: 'w', role: 'Writer', goal: 'Write', llm: { provider: 'scripted', model: 's', script: { default: 'Not approved yet.' } } }],
        tasks: [
          {
            id: 'approve',
            description: 'Approve the launch',
            expectedOutput: 'A sentence ending with SHIP IT',
            agentId: 'w',
            guardrails: [{ type: 'contains', text: 'SHIP IT' }],
            guardrailMaxRetries: 1,
          },
        ],
      }),
    );
    const r = await runCli(['run', file, '--json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(1);
    const body = parseSingleJson(r);
    expect(body.status).toBe('failed');
    expect(body.output).toBe('');
    expect(body.error).toContain('output must contain "SHIP IT"');

    const events = await runEvents(ws.dir, body.runId);
    const types = events.map((e) => e.type);
    expect(types).toContain('task.failed');
    expect(types.filter((t) => t === 'guardrail.failed')).toHaveLength(2); // first attempt + one retry
    expect(types.at(-1)).toBe('run.failed');
    const failed = events.find((e) => e.type === 'task.failed') as { taskId: string; error: string };
    expect(failed.taskId).toBe('approve');
    expect(failed.error).toContain('SHIP IT');
    expect((await showRun(ws.dir, body.runId)).status).toBe('failed');
  });

  it('without --json it prints the failure and still exits 1', async () => {
    ws = tempDir();
    const file = ws.write(
      'stubborn.crew.json',
      scriptedCrew({
        agents: [{ id: 'w', role: 'Writer', goal: 'Write', llm: { provider: 'scripted', model: 's', script: { default: 'nope' } } }],
        tasks: [{ id: 'approve', description: 'd', expectedOutput: 'e', agentId: 'w', guardrails: [{ type: 'regex', pattern: '^OK$' }], guardrailMaxRetries: 0 }],
      }),
    );
    const r = await runCli(['run', file], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(1);
    expect(r.stdout).toContain('Run failed');
    expect(r.stdout).toContain('/^OK$/');
  });
});

describe('human output', () => {
  it('shows the tree: tasks, agents, tools, guardrails, the output and "completed"', async () => {
    ws = tempExamples();
    const r = await runCli(['run', ws.path('research-brief.crew.json')], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    const out = r.stdout;
    expect(out).not.toMatch(/\x1b\[/); // not a terminal: no colours, no spinner
    expect(out).toContain('▶ Research brief');
    expect(out).toMatch(/▸ task 1\/2 research/);
    expect(out).toMatch(/▸ task 2\/2 brief/);
    expect(out).toMatch(/● Researcher/);
    expect(out).toMatch(/⚒ read_file →/);
    expect(out).toMatch(/⚒ calculator → 18\b/);
    expect(out).toMatch(/⚒ calculator → 10400\b/);
    expect(out).toMatch(/✗ guardrail contains: output must contain "SHIP IT"/);
    expect(out).toMatch(/✓ task brief .*→ out\/brief\.md/);
    expect(out).toMatch(/✓ completed in /);
    expect(out).toContain(BRIEF);
    // Tree order: task 1 before its tool lines before task 2 before the final output.
    const order = ['▸ task 1/2', '⚒ read_file', '▸ task 2/2', '✓ completed', 'Output'].map((s) => out.indexOf(s));
    expect(order).toEqual([...order].sort((x, y) => x - y));
    // Nested lines are indented under their task.
    expect(out).toMatch(/\n {2,}⚒ read_file/);
  });

  it('shows delegation lines for the hierarchical example', async () => {
    ws = tempExamples();
    const r = await runCli(['run', ws.path('product-launch.crew.json')], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stdout).toMatch(/⇢ Crew Manager delegates to Market Analyst/);
    expect(r.stdout).toMatch(/⇢ Crew Manager delegates to Copywriter/);
    expect(r.stdout).toMatch(/✓ completed in /);
  });
});

describe('a human at the terminal (piped stdin)', () => {
  const reviewedCrew = () =>
    scriptedCrew({
      agents: [
        {
          id: 'c',
          role: 'Checker',
          goal: 'Check sums',
          tools: [{ tool: 'calculator', requiresApproval: true }],
          llm: {
            provider: 'scripted',
            model: 's',
            script: {
              rules: [
                { when: { last: 'A human reviewed your final answer' }, reply: 'The result is two.' },
                { when: { lastRole: 'user', last: 'Current task' }, reply: { toolCalls: [{ name: 'calculator', arguments: { expression: '1 + 1' } }] } },
                { when: { lastRole: 'tool' }, reply: 'Result is 2' },
              ],
            },
          },
        },
      ],
      tasks: [{ id: 'sum', description: 'Add one and one', expectedOutput: 'The sum', agentId: 'c', humanInput: true }],
    });

  it('approves a tool and gives review feedback from stdin; --json keeps stdout to one object', async () => {
    ws = tempDir();
    const file = ws.write('reviewed.crew.json', reviewedCrew());
    const r = await runCli(['run', file, '--json'], { cwd: ws.dir, stdin: 'y\nSay it in words\n\n' });
    expect(r.code, describeResult(r)).toBe(0);
    const body = parseSingleJson(r);
    expect(body.output).toBe('The result is two.');
    expect(r.stderr).toContain('Checker wants to use calculator');
    expect(r.stderr).toContain('Review the answer of Checker');

    const events = await runEvents(ws.dir, body.runId);
    const answered = events.filter((e) => e.type === 'human.answered') as { kind: string; decision?: string; feedback?: string }[];
    expect(answered.map((e) => [e.kind, e.decision ?? e.feedback])).toEqual([
      ['tool_approval', 'approve'],
      ['task_review', 'Say it in words'],
      ['task_review', ''],
    ]);
    expect(events.some((e) => e.type === 'tool.completed' && e.result === '2')).toBe(true);
  });

  it('at end of input, approvals are denied and reviews accepted', async () => {
    ws = tempDir();
    const file = ws.write('reviewed.crew.json', reviewedCrew());
    const r = await runCli(['run', file, '--json'], { cwd: ws.dir, stdin: '' });
    expect(r.code, describeResult(r)).toBe(0);
    const body = parseSingleJson(r);
    expect(body.output).toBe('Result is 2');
    const events = await runEvents(ws.dir, body.runId);
    const blocked = events.filter((e) => e.type === 'tool.blocked') as { tool: string; by: string }[];
    expect(blocked.map((e) => [e.tool, e.by])).toEqual([['calculator', 'approval']]);
    expect(events.some((e) => e.type === 'tool.completed')).toBe(false);
  });
});

describe('crewdeck command line', () => {
  it('--help exits 0 and lists the commands', async () => {
    const r = await runCli(['--help']);
    expect(r.code, describeResult(r)).toBe(0);
    for (const command of ['crewdeck run', 'crewdeck replay', 'crewdeck validate', 'crewdeck runs list', 'crewdeck runs show', 'crewdeck runs events']) {
      expect(r.stdout).toContain(command);
    }
  });

  it('an unknown command exits 2 and says so', async () => {
    const r = await runCli(['frobnicate']);
    expect(r.code, describeResult(r)).toBe(2);
    expect(r.stderr).toContain('unknown command "frobnicate"');
  });

  it('no command at all exits 2 with the usage', async () => {
    const r = await runCli([]);
    expect(r.code, describeResult(r)).toBe(2);
    expect(r.stdout).toContain('Usage:');
  });

  it('an unknown option exits 2', async () => {
    ws = tempExamples();
    const r = await runCli(['run', ws.path('research-brief.crew.json'), '--frobnicate'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(2);
    expect(r.stderr).toContain('frobnicate');
  });

  it('run of a missing file exits 2', async () => {
    ws = tempDir();
    const r = await runCli(['run', ws.path('nope.crew.json'), '--json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(2);
    expect(parseSingleJson(r).error).toContain('file not found');
    expect(existsSync(ws.path('.crewdeck')), 'nothing is written for a bad document').toBe(false);
  });

  it('a run store that cannot be opened is exit 2 with a message naming it', async () => {
    ws = tempExamples();
    writeFileSync(ws.path('.crewdeck'), 'not a folder');
    const r = await runCli(['run', ws.path('research-brief.crew.json'), '--json'], { cwd: ws.dir });
    expect(r.code, describeResult(r)).toBe(2);
    expect(parseSingleJson(r).error).toMatch(/cannot open the run store .*crewdeck\.db/);
  });

  it('--help after a command prints the usage', async () => {
    const r = await runCli(['run', '--help']);
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stdout).toContain('crewdeck run <file.crew.json|file.flow.json>');
  });
});
