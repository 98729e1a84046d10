import { afterEach, describe, expect, it } from 'vitest';
import { GuardrailSchema, type Guardrail } from '../../shared/model/guardrail';
import { checkGuardrail } from '../../runtime/crew/guardrails';
import { agentPrompts, crew, ofType, runCrew, scripted } from '../support/crewHarness';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function writerCrew(llm: Record<string, unknown>, task: Record<string, unknown>) {
  return crew({
    agents: [{ id: 'w', role: 'Writer', goal: 'write', llm }],
    tasks: [{ id: 'post', description: 'Write the release note', expectedOutput: 'a note', agentId: 'w', ...task }],
  });
}

describe('guardrails', () => {
  it('fails once, then passes; the retry prompt carries the message and the rejected output', async () => {
    const llm = scripted({ rules: [{ when: { last: 'was rejected' }, reply: 'Release 1.2 is out. SHIP IT' }, { when: {}, reply: 'Release 1.2 is out.' }] });
    const { result, events, ws } = await runCrew(writerCrew(llm, { guardrails: [{ type: 'regex', pattern: 'SHIP IT' }] }));
    cleanups.push(ws.remove);
    expect(result.status).toBe('completed');
    expect(result.output).toBe('Release 1.2 is out. SHIP IT');
    expect(ofType(events, 'guardrail.failed')).toEqual([expect.objectContaining({ attempt: 1, reason: 'output must match /SHIP IT/' })]);
    expect(ofType(events, 'guardrail.passed')).toEqual([expect.objectContaining({ attempt: 2 })]);
    expect(ofType(events, 'task.retrying')[0]).toMatchObject({ attempt: 2, reason: 'output must match /SHIP IT/', rejectedOutput: 'Release 1.2 is out.' });
    const retryPrompt = agentPrompts(events)[1];
    expect(retryPrompt).toContain('Write the release note');
    expect(retryPrompt).toContain('Reason: output must match /SHIP IT/');
    expect(retryPrompt).toContain('Rejected answer:\nRelease 1.2 is out.');
  });

  it('a guardrail that always fails ends with task.failed and a failed run after the allowed retries', async () => {
    const llm = scripted({ default: 'never good enough' });
    const { result, events, ws } = await runCrew(writerCrew(llm, { guardrails: [{ type: 'contains', text: 'perfect' }], guardrailMaxRetries: 2 }));
    cleanups.push(ws.remove);
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ name: 'GuardrailExhausted' });
    expect(result.error?.message).toContain('output must contain "perfect"');
    expect(ofType(events, 'agent.started')).toHaveLength(3); // first try + 2 retries
    expect(ofType(events, 'task.failed')[0]).toMatchObject({ taskId: 'post', errorName: 'GuardrailExhausted' });
    expect(ofType(events, 'run.failed')).toHaveLength(1);
    expect(ws.store.getRun(result.runId)?.status).toBe('failed');
  });

  it('validates JSON output against the task schema; invalid JSON is a retry, not a crash', async () => {
    const llm = scripted({
      // The conversion call each failing reply gets first (outputConversion.ts) does not help here.
      rules: [{ when: { system: 'You turn text into JSON' }, reply: 'I cannot do that.' }],
      sequence: ['not json at all', '```json\n{"title": "Hi", "score": "high"}\n```', 'Here it is: {"title": "Hi", "score": 9}'],
    });
    const schema = { type: 'object', properties: { title: { type: 'string' }, score: { type: 'number' } }, required: ['title', 'score'] };
    const { result, events, ws } = await runCrew(writerCrew(llm, { output: { format: 'json', schema } }));
    cleanups.push(ws.remove);
    expect(result.status).toBe('completed');
    expect(result.tasks[0]!.json).toEqual({ title: 'Hi', score: 9 });
    const reasons = ofType(events, 'guardrail.failed').map((e) => e.reason);
    expect(reasons[0]).toMatch(/^output must be valid JSON/);
    expect(reasons[1]).toBe("output JSON must match the task's schema: /score must be number");
    expect(agentPrompts(events)[0]).toContain('must be JSON that follows this JSON Schema');
    expect(ofType(events, 'llm.started').map((e) => e.purpose)).toEqual(['agent', 'conversion', 'agent', 'conversion', 'agent']);
  });

  it('an llm guardrail asks a judge model and uses its reason', async () => {
    const judge = scripted({ rules: [{ when: { last: 'SHIP IT' }, reply: '{"pass": true, "reason": "ok"}' }, { when: {}, reply: '{"pass": false, "reason": "it is not upbeat"}' }] }, 'judge');
    const llm = scripted({ rules: [{ when: { last: 'was rejected' }, reply: 'Great news! SHIP IT' }, { when: {}, reply: 'meh' }] });
    const { result, events, ws } = await runCrew(writerCrew(llm, { guardrails: [{ type: 'llm', criterion: 'the note is upbeat', llm: judge }] }));
    cleanups.push(ws.remove);
    expect(result.output).toBe('Great news! SHIP IT');
    expect(ofType(events, 'guardrail.failed')[0]!.reason).toBe('output must satisfy "the note is upbeat": it is not upbeat');
    expect(ofType(events, 'llm.started').filter((e) => e.purpose === 'guardrail')).toHaveLength(2);
    // The judge's tokens count for the task and for the agent it judged, so the parts add up.
    expect(result.usageByAgent.Writer).toEqual(result.tokenUsage);
    expect(result.usageByTask.post).toEqual(result.tokenUsage);
  });

  it('states every built-in requirement in words', async () => {
    const check = (g: unknown, output: string) =>
      checkGuardrail(GuardrailSchema.parse(g) as Guardrail, output, { ctx: undefined as never, span: undefined as never, taskId: 't', agentRole: 'Writer', judge: undefined as never });
    expect(await check({ type: 'regex', pattern: '^v\\d+', flags: 'i' }, 'release')).toEqual({ pass: false, reason: 'output must match /^v\\d+/i' });
    expect(await check({ type: 'length', min: 10 }, 'short')).toEqual({ pass: false, reason: 'output must be at least 10 characters long (it has 5)' });
    expect(await check({ type: 'length', max: 3 }, 'longer')).toEqual({ pass: false, reason: 'output must be at most 3 characters long (it has 6)' });
    expect(await check({ type: 'contains', text: 'TODO' }, 'done')).toEqual({ pass: false, reason: 'output must contain "TODO"' });
    expect(await check({ type: 'not_contains', text: 'lorem' }, 'lorem ipsum')).toEqual({ pass: false, reason: 'output must not contain "lorem"' });
    expect(await check({ type: 'json_schema', schema: { type: 'array', minItems: 2 } }, '[1]')).toEqual({
      pass: false,
      reason: "output JSON must match the task's schema: (root) must NOT have fewer than 2 items",
    });
    expect(await check({ type: 'length', min: 1, max: 10 }, 'fine')).toEqual({ pass: true });
  });
});
