import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RunContext } from '../../runtime/agent/runContext';
import { UsageMeter } from '../../runtime/agent/usageMeter';
import { RunEventLog } from '../../runtime/events/span';
import { unattendedHuman } from '../../runtime/human/humanChannel';
import type { ChatModel, ChatRequest } from '../../runtime/llm/chatModel';
import { askEvaluatorJson } from '../../runtime/training/evaluatorJson';
import { EvaluatorReplyInvalid } from '../../runtime/training/trainingErrors';
import { TrainingEvaluationSchema } from '../../runtime/training/trainingEvaluation';
import { emptyUsage } from '../../shared/usage';

/** A model answering from a list, remembering every request. */
function listModel(replies: string[]): ChatModel & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    provider: 'test',
    model: 'list',
    supportsNativeTools: false,
    requests,
    async chat(request) {
      requests.push(request);
      const content = replies.shift();
      if (content === undefined) throw new Error('no reply left');
      return { content, toolCalls: [], finishReason: 'stop', usage: { ...emptyUsage(), totalTokens: 10, requests: 1 } };
    },
  };
}

/** The evaluator's calls go through a run of their own: here a bare one, its events collected. */
const call = (model: ChatModel) => {
  const log = new RunEventLog('run-eval', () => 0);
  const root = log.root();
  const ctx: RunContext = { runId: 'run-eval', workspace: '.', signal: new AbortController().signal, gate: undefined as never, human: unattendedHuman, meter: new UsageMeter(), newId: (p) => p, root };
  return { ctx, parent: root, model, subject: 'role "Writer"', messages: [{ role: 'user' as const, content: 'evaluate' }] };
};

describe('evaluator replies: one repair attempt', () => {
  it('a valid reply is used as is', async () => {
    const model = listModel(['{"suggestions": ["Be brief."], "quality": 8, "summary": "Good."}']);
    const { value, repaired, usage } = await askEvaluatorJson(call(model), TrainingEvaluationSchema);
    expect(value).toEqual({ suggestions: ['Be brief.'], quality: 8, summary: 'Good.' });
    expect(repaired).toBe(false);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]!.responseFormat).toEqual({ type: 'json_object' });
    expect(usage.totalTokens).toBe(10);
  });

  it('invalid JSON is sent back with its error once; a good second reply is used', async () => {
    const model = listModel(['Sure! Here are my thoughts', '```json\n{"suggestions": ["Be brief."], "quality": 8, "summary": "Good."}\n```']);
    const { value, repaired, usage } = await askEvaluatorJson(call(model), TrainingEvaluationSchema);
    expect(value.suggestions).toEqual(['Be brief.']);
    expect(repaired).toBe(true);
    expect(usage.totalTokens).toBe(20);
    const repair = model.requests[1]!.messages;
    expect(repair.at(-2)).toEqual({ role: 'assistant', content: 'Sure! Here are my thoughts' });
    expect(repair.at(-1)?.content).toMatch(/could not be used: it is not valid JSON/);
  });

  it('a reply of the wrong shape names the fields in the repair request', async () => {
    const model = listModel(['{"suggestions": [], "quality": 12, "summary": "x"}', '{"suggestions": ["ok"], "quality": 9, "summary": "x"}']);
    await askEvaluatorJson(call(model), TrainingEvaluationSchema);
    const repairText = model.requests[1]!.messages.at(-1)!.content;
    expect(repairText).toContain('suggestions');
    expect(repairText).toContain('quality');
  });

  it('a second bad reply throws EvaluatorReplyInvalid (never an empty result) and asks no third time', async () => {
    const model = listModel(['nope', '{"score": "high"}', '{"suggestions": ["never asked"], "quality": 1, "summary": "x"}']);
    const failure = askEvaluatorJson(call(model), TrainingEvaluationSchema);
    await expect(failure).rejects.toBeInstanceOf(EvaluatorReplyInvalid);
    await expect(failure).rejects.toThrow(/role "Writer".*after one repair attempt.*suggestions/);
    expect(model.requests).toHaveLength(2);
  });

  it('works for any schema (the test evaluator uses {score, reason})', async () => {
    const schema = z.object({ score: z.number().min(1).max(10), reason: z.string() });
    const model = listModel(['{"score": 0, "reason": "x"}', '{"score": 4, "reason": "meh"}']);
    expect((await askEvaluatorJson(call(model), schema)).value).toEqual({ score: 4, reason: 'meh' });
  });
});
