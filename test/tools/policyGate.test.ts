import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RuntimeEvent, ToolApprovalDecision } from '../../shared/events';
import { RunEventLog, type Span } from '../../runtime/events/span';
import type { HumanChannel, ToolApprovalRequest } from '../../runtime/human/humanChannel';
import { PolicyGate, type PolicyGateOptions, type ToolCall, type ToolUse } from '../../runtime/tools/policyGate';
import { defineTool, ToolError, type Tool, type ToolContext } from '../../runtime/tools/tool';

/** Answers approval requests from a script and records them. */
class ScriptedHuman implements HumanChannel {
  readonly requests: ToolApprovalRequest[] = [];
  constructor(private readonly answers: ToolApprovalDecision[] = []) {}
  async reviewTask(): Promise<string> {
    return '';
  }
  async approveTool(request: ToolApprovalRequest): Promise<ToolApprovalDecision> {
    this.requests.push(request);
    const answer = this.answers.shift();
    if (!answer) throw new Error('unexpected approval request');
    return answer;
  }
}

/** A tool that records its calls and echoes its arguments. */
function recordingTool(overrides: Partial<Tool> = {}) {
  const calls: { args: Record<string, unknown>; ctx: ToolContext }[] = [];
  const tool = defineTool({
    name: 'lookup',
    description: 'Look a word up.',
    parameters: {
      type: 'object',
      properties: { word: { type: 'string' }, limit: { type: 'integer', minimum: 1 } },
      required: ['word'],
      additionalProperties: false,
    },
    async execute(args, ctx) {
      calls.push({ args, ctx });
      return `definition of ${String(args.word)}`;
    },
    ...overrides,
  });
  return { tool, calls };
}

function setup(options: Partial<PolicyGateOptions> = {}) {
  const log = new RunEventLog('run-1', () => 1000);
  const events: RuntimeEvent[] = [];
  log.listen((e) => events.push(e));
  const parent: Span = log.root();
  let requestCounter = 0;
  const gate = new PolicyGate({
    workspace: '/work/space',
    human: new ScriptedHuman(),
    newRequestId: () => `req-${++requestCounter}`,
    ...options,
  });
  const signal = new AbortController().signal;
  let callCounter = 0;
  const call = (use: ToolUse, args: unknown, extra: Partial<ToolCall> = {}) =>
    gate.call({ use, args, callId: `call-${++callCounter}`, agentRole: 'Researcher', taskId: 't1', cache: true, ...extra }, parent, signal);
  return { gate, events, parent, call, types: () => events.map((e) => e.type) };
}

describe('PolicyGate', () => {
  it('runs a normal call inside a child span: tool.started then tool.completed', async () => {
    const { tool, calls } = recordingTool();
    const { call, events, parent } = setup();
    const outcome = await call({ tool, config: { lang: 'en' } }, { word: 'gate' });

    expect(outcome).toEqual({ observation: 'definition of gate', status: 'completed', resultAsAnswer: false });
    expect(events.map((e) => e.type)).toEqual(['tool.started', 'tool.completed']);
    const [started, completed] = events;
    expect(started).toMatchObject({ tool: 'lookup', args: { word: 'gate' }, agentRole: 'Researcher', callId: 'call-1', parentSpanId: parent.id });
    expect(completed).toMatchObject({ tool: 'lookup', result: 'definition of gate', resultAsAnswer: false, spanId: started!.spanId });
    expect(started!.spanId).not.toBe(parent.id);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.ctx).toMatchObject({ workspace: '/work/space', agentRole: 'Researcher', taskId: 't1', config: { lang: 'en' } });
  });

  it('passes an empty config when the use has none', async () => {
    const { tool, calls } = recordingTool();
    await setup().call({ tool }, { word: 'x' });
    expect(calls[0]!.ctx.config).toEqual({});
  });

  it('answers invalid arguments with the problems and the expected parameters, without calling the tool', async () => {
    const { tool, calls } = recordingTool();
    const { call, events } = setup();
    const outcome = await call({ tool }, { limit: 0, colour: 'red' });

    expect(outcome.status).toBe('failed');
    expect(calls).toHaveLength(0);
    expect(outcome.observation).toContain('Error using tool lookup: the arguments do not match its parameters.');
    expect(outcome.observation).toContain('- missing required property "word"');
    expect(outcome.observation).toContain('- unexpected property "colour"');
    expect(outcome.observation).toContain('- "limit" must be >= 1');
    expect(outcome.observation).toContain(`Expected parameters (JSON Schema): ${JSON.stringify(tool.parameters)}`);
    expect(events.map((e) => e.type)).toEqual(['tool.started', 'tool.failed']);
    expect(events[1]).toMatchObject({ tool: 'lookup', error: expect.stringContaining('missing required property "word"') });
  });

  it.each([
    [['word'], 'an array'],
    ['{"word":"x"}', 'string'],
    [null, 'null'],
  ])('refuses arguments that are not a JSON object (%j)', async (args, what) => {
    const { tool, calls } = recordingTool();
    const outcome = await setup().call({ tool }, args);
    expect(outcome.status).toBe('failed');
    expect(outcome.observation).toContain(`the arguments must be a JSON object, not ${what}`);
    expect(calls).toHaveLength(0);
  });

  it('validates schemas written by zod (draft 2020-12) and draft-07 schemas', async () => {
    const zodSchema = z.toJSONSchema(z.strictObject({ question: z.string(), coworker: z.string() })) as Record<string, unknown>;
    expect(String(zodSchema.$schema)).toContain('2020-12');
    const ask = recordingTool({ name: 'ask_question', parameters: zodSchema });
    const { call } = setup();
    expect((await call({ tool: ask.tool }, { question: 'q', coworker: 'Writer' })).status).toBe('completed');
    expect((await call({ tool: ask.tool }, { question: 'q' })).observation).toContain('missing required property "coworker"');

    const draft07 = recordingTool({
      name: 'old',
      parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required: ['word'] },
    });
    expect((await call({ tool: draft07.tool }, {})).observation).toContain('missing required property "word"');
    expect((await call({ tool: draft07.tool }, { word: 'w' })).status).toBe('completed');
  });

  it('reports a tool whose schema cannot be compiled instead of throwing', async () => {
    const broken = recordingTool({ name: 'broken', parameters: { type: 'object', properties: { a: { type: 'no-such-type' } } } });
    const outcome = await setup().call({ tool: broken.tool }, { a: 1 });
    expect(outcome.status).toBe('failed');
    expect(outcome.observation).toMatch(/^Error using tool broken: the tool's parameter schema is invalid/);
    expect(broken.calls).toHaveLength(0);
  });

  it('blocks a call when a before-hook says so', async () => {
    const { tool, calls } = recordingTool();
    const seen: unknown[] = [];
    const { call, events } = setup({
      before: [
        (c) => {
          seen.push(c);
          return { block: 'lookups are off today' };
        },
      ],
    });
    const outcome = await call({ tool, resultAsAnswer: true }, { word: 'x' });

    expect(outcome).toEqual({ observation: 'Tool call blocked: lookups are off today', status: 'blocked', resultAsAnswer: false });
    expect(calls).toHaveLength(0);
    expect(seen).toEqual([{ tool: 'lookup', args: { word: 'x' }, agentRole: 'Researcher', taskId: 't1' }]);
    expect(events.map((e) => e.type)).toEqual(['tool.started', 'tool.blocked']);
    expect(events[1]).toMatchObject({ tool: 'lookup', reason: 'lookups are off today', by: 'hook', spanId: events[0]!.spanId });
  });

  it('lets before-hooks replace the arguments, in order', async () => {
    const { tool, calls } = recordingTool();
    const secondSaw: unknown[] = [];
    const { call } = setup({
      before: [
        () => undefined,
        (c) => ({ args: { ...c.args, word: String(c.args.word).toUpperCase() } }),
        (c) => {
          secondSaw.push(c.args);
        },
      ],
    });
    const outcome = await call({ tool }, { word: 'quiet' });
    expect(calls[0]!.args).toEqual({ word: 'QUIET' });
    expect(secondSaw).toEqual([{ word: 'QUIET' }]);
    expect(outcome.observation).toBe('definition of QUIET');
  });

  it('lets a before-hook supply the result without calling the tool', async () => {
    const { tool, calls } = recordingTool();
    const { call, events } = setup({ before: [async () => ({ result: 'from the hook' })] });
    const outcome = await call({ tool }, { word: 'x' });
    expect(outcome).toMatchObject({ observation: 'from the hook', status: 'completed' });
    expect(calls).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ type: 'tool.completed', result: 'from the hook' });
  });

  it('lets after-hooks replace the result', async () => {
    const { tool } = recordingTool();
    const afterSaw: unknown[] = [];
    const { call, events } = setup({
      after: [
        (c) => {
          afterSaw.push(c);
          return { result: c.result.replace('definition', 'DEFINITION') };
        },
        async (c) => ({ result: `${c.result} (checked)` }),
      ],
    });
    const outcome = await call({ tool }, { word: 'x' });
    expect(afterSaw).toEqual([{ tool: 'lookup', args: { word: 'x' }, agentRole: 'Researcher', taskId: 't1', result: 'definition of x' }]);
    expect(outcome.observation).toBe('DEFINITION of x (checked)');
    expect(events.at(-1)).toMatchObject({ type: 'tool.completed', result: 'DEFINITION of x (checked)' });
  });

  describe('approval', () => {
    it('asks the human in a request span under the tool span and runs the tool when approved', async () => {
      const { tool, calls } = recordingTool();
      const human = new ScriptedHuman(['approve', 'approve']);
      const { call, events } = setup({ human });
      const outcome = await call({ tool, requiresApproval: true }, { word: 'x' });

      expect(outcome.status).toBe('completed');
      expect(calls).toHaveLength(1);
      expect(events.map((e) => e.type)).toEqual(['tool.started', 'human.requested', 'human.answered', 'tool.completed']);
      const spanId = events[0]!.spanId;
      expect(events[1]).toMatchObject({
        requestId: 'req-1',
        kind: 'tool_approval',
        agentRole: 'Researcher',
        taskId: 't1',
        tool: 'lookup',
        args: { word: 'x' },
        prompt: 'Researcher wants to use the tool "lookup" with arguments {"word":"x"}. Allow this call?',
        parentSpanId: spanId,
      });
      expect(events[2]).toMatchObject({ requestId: 'req-1', kind: 'tool_approval', decision: 'approve', spanId: events[1]!.spanId });
      expect(events[3]!.spanId).toBe(spanId);
      expect(human.requests[0]).toEqual({ requestId: 'req-1', agentRole: 'Researcher', taskId: 't1', tool: 'lookup', args: { word: 'x' } });

      // a plain approval is for one call only
      await call({ tool, requiresApproval: true }, { word: 'y' });
      expect(human.requests).toHaveLength(2);
    });

    it('blocks the call when the human denies it', async () => {
      const { tool, calls } = recordingTool();
      const { call, events } = setup({ human: new ScriptedHuman(['deny']) });
      const outcome = await call({ tool, requiresApproval: true }, { word: 'x' });

      expect(outcome.status).toBe('blocked');
      expect(outcome.observation).toBe('The user denied permission to use the tool "lookup". Continue without it.');
      expect(calls).toHaveLength(0);
      expect(events.map((e) => e.type)).toEqual(['tool.started', 'human.requested', 'human.answered', 'tool.blocked']);
      expect(events[3]).toMatchObject({ by: 'approval', tool: 'lookup' });
    });

    it('remembers "always" for the rest of the run', async () => {
      const { tool, calls } = recordingTool();
      const human = new ScriptedHuman(['always']);
      const { call, types } = setup({ human });
      await call({ tool, requiresApproval: true }, { word: 'x' });
      const second = await call({ tool, requiresApproval: true }, { word: 'y' }, { agentRole: 'Writer' });

      expect(second.status).toBe('completed');
      expect(human.requests).toHaveLength(1);
      expect(calls).toHaveLength(2);
      expect(types().filter((t) => t === 'human.requested')).toHaveLength(1);
    });

    it('still asks for approval when before-hooks are configured, and a denial keeps the tool from running', async () => {
      const { tool, calls } = recordingTool();
      const hookSaw: unknown[] = [];
      const human = new ScriptedHuman(['deny', 'approve']);
      const { call, events } = setup({
        human,
        before: [
          (c) => {
            hookSaw.push(c.args);
          },
          (c) => ({ args: { ...c.args, word: String(c.args.word).toUpperCase() } }),
        ],
      });
      const denied = await call({ tool, requiresApproval: true }, { word: 'x' });
      expect(hookSaw).toEqual([{ word: 'x' }]);
      expect(denied.status).toBe('blocked');
      expect(calls).toHaveLength(0);
      expect(events.map((e) => e.type)).toEqual(['tool.started', 'human.requested', 'human.answered', 'tool.blocked']);
      // The person is asked about the arguments the hooks settled on.
      expect(human.requests[0]).toMatchObject({ tool: 'lookup', args: { word: 'X' } });

      const approved = await call({ tool, requiresApproval: true }, { word: 'y' });
      expect(approved.status).toBe('completed');
      expect(human.requests).toHaveLength(2);
      expect(calls.map((c) => c.args)).toEqual([{ word: 'Y' }]);
    });

    it('does not ask when approval is not required', async () => {
      const { tool } = recordingTool();
      const human = new ScriptedHuman();
      await setup({ human }).call({ tool }, { word: 'x' });
      expect(human.requests).toHaveLength(0);
    });
  });

  it('blocks calls over maxUsageCount per agent and tool, counting failures', async () => {
    let attempt = 0;
    const { tool } = recordingTool({
      async execute(args) {
        attempt += 1;
        if (attempt === 1) throw new ToolError('temporarily unavailable');
        return `ok ${String(args.word)}`;
      },
    });
    const { call, events } = setup();
    const use: ToolUse = { tool, maxUsageCount: 2 };
    expect((await call(use, { word: 'a' }, { cache: false })).status).toBe('failed');
    expect((await call(use, { word: 'b' }, { cache: false })).status).toBe('completed');
    const third = await call(use, { word: 'c' }, { cache: false });

    expect(third.status).toBe('blocked');
    expect(third.observation).toContain('usage limit');
    expect(third.observation).toContain('at most 2 times');
    expect(attempt).toBe(2);
    expect(events.at(-1)).toMatchObject({ type: 'tool.blocked', by: 'usage_limit', tool: 'lookup' });
    // another agent has its own count
    expect((await call(use, { word: 'd' }, { agentRole: 'Writer' })).status).toBe('completed');
  });

  describe('cache', () => {
    it('reuses the result of an identical call (argument order does not matter)', async () => {
      const { tool, calls } = recordingTool();
      const { call, events } = setup();
      await call({ tool }, { word: 'x', limit: 2 });
      const second = await call({ tool, resultAsAnswer: true }, { limit: 2, word: 'x' });

      expect(calls).toHaveLength(1);
      expect(second).toEqual({ observation: 'definition of x', status: 'cached', resultAsAnswer: true });
      expect(events.slice(2).map((e) => e.type)).toEqual(['tool.started', 'tool.cached']);
      expect(events.at(-1)).toMatchObject({ tool: 'lookup', result: 'definition of x', spanId: events[2]!.spanId });
      await call({ tool }, { word: 'other' });
      expect(calls).toHaveLength(2);
    });

    it('does not cache when the agent has cache off', async () => {
      const { tool, calls } = recordingTool();
      const { call } = setup();
      await call({ tool }, { word: 'x' }, { cache: false });
      const second = await call({ tool }, { word: 'x' }, { cache: false });
      expect(second.status).toBe('completed');
      expect(calls).toHaveLength(2);
    });

    it('does not cache tools marked cacheable: false', async () => {
      const { tool, calls } = recordingTool({ cacheable: false });
      const { call } = setup();
      await call({ tool }, { word: 'x' });
      expect((await call({ tool }, { word: 'x' })).status).toBe('completed');
      expect(calls).toHaveLength(2);
    });

    it('forgets cached results once a tool that may change things has run', async () => {
      const { tool: lookup, calls } = recordingTool();
      const { tool: writer } = recordingTool({ name: 'writer', cacheable: false });
      const { call } = setup();
      await call({ tool: lookup }, { word: 'x' });
      expect((await call({ tool: lookup }, { word: 'x' })).status).toBe('cached');
      await call({ tool: writer }, { word: 'y' });
      expect((await call({ tool: lookup }, { word: 'x' })).status).toBe('completed');
      expect(calls).toHaveLength(2);
    });

    it('does not cache failures', async () => {
      let attempt = 0;
      const { tool } = recordingTool({
        async execute() {
          attempt += 1;
          if (attempt === 1) throw new Error('flaky');
          return 'fine';
        },
      });
      const { call } = setup();
      expect((await call({ tool }, { word: 'x' })).status).toBe('failed');
      expect(await call({ tool }, { word: 'x' })).toMatchObject({ status: 'completed', observation: 'fine' });
      expect(await call({ tool }, { word: 'x' })).toMatchObject({ status: 'cached', observation: 'fine' });
      expect(attempt).toBe(2);
    });
  });

  it('turns a thrown ToolError or any other error into a failed observation', async () => {
    const { call, events } = setup();
    const expected = recordingTool({
      async execute() {
        throw new ToolError('file "a.txt" does not exist');
      },
    });
    const outcome = await call({ tool: expected.tool, resultAsAnswer: true }, { word: 'x' });
    expect(outcome).toEqual({ observation: 'Error using tool lookup: file "a.txt" does not exist', status: 'failed', resultAsAnswer: false });
    expect(events.at(-1)).toMatchObject({ type: 'tool.failed', tool: 'lookup', error: 'file "a.txt" does not exist', spanId: events[0]!.spanId });
    expect(typeof (events.at(-1) as { durationMs: number }).durationMs).toBe('number');

    const crashing = recordingTool({
      async execute() {
        throw new TypeError('cannot read properties of undefined');
      },
    });
    expect((await call({ tool: crashing.tool }, { word: 'x' })).observation).toBe(
      'Error using tool lookup: cannot read properties of undefined',
    );
  });

  it('turns a failing hook into a failed observation too', async () => {
    const { tool, calls } = recordingTool();
    const outcome = await setup({
      before: [
        () => {
          throw new Error('hook exploded');
        },
      ],
    }).call({ tool }, { word: 'x' });
    expect(outcome).toMatchObject({ status: 'failed', observation: 'Error using tool lookup: hook exploded' });
    expect(calls).toHaveLength(0);
  });

  it('reports resultAsAnswer from the tool use on success', async () => {
    const { tool } = recordingTool();
    const { call, events } = setup();
    expect((await call({ tool, resultAsAnswer: true }, { word: 'x' }, { cache: false })).resultAsAnswer).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'tool.completed', resultAsAnswer: true });
    expect((await call({ tool }, { word: 'x' }, { cache: false })).resultAsAnswer).toBe(false);
  });

  it('rejects only when the run is aborted, closing the tool span', async () => {
    const { tool } = recordingTool({
      execute: (_args, ctx) =>
        new Promise<string>((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
        }),
    });
    const log = new RunEventLog('run-2');
    const events: RuntimeEvent[] = [];
    log.listen((e) => events.push(e));
    const gate = new PolicyGate({ workspace: '/w', human: new ScriptedHuman() });
    const controller = new AbortController();
    const pending = gate.call({ use: { tool }, args: { word: 'x' }, callId: 'c', agentRole: 'R', cache: true }, log.root(), controller.signal);
    controller.abort(new Error('run cancelled'));
    await expect(pending).rejects.toThrow('run cancelled');
    expect(events.map((e) => e.type)).toEqual(['tool.started', 'tool.failed']);
    expect(events[1]).toMatchObject({ error: 'cancelled' });
  });
});
