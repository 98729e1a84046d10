import { describe, expect, it } from 'vitest';
import type { RunStepSide } from '../../shared/runDiff';
import { emptyUsage } from '../../shared/usage';
import { diffStep } from '../../runtime/runs/runDiff';

const side = (over: Partial<RunStepSide> = {}): RunStepSide => ({ status: 'completed', output: 'Answer.', tokenUsage: emptyUsage(), toolCalls: [], attempts: 1, guardrails: [], ...over });
const tokens = (totalTokens: number) => ({ ...emptyUsage(), totalTokens, promptTokens: totalTokens });

describe('a step of two runs compared', () => {
  it('is changed when its tool calls or attempts differ, even with the same output; tokens alone do not count', () => {
    const calls = ['read_file({"path":"a.md"})', 'calculator({"expression":"2*3"})'];
    const dropped = diffStep('t1', side({ toolCalls: calls, tokenUsage: tokens(900) }), side({ tokenUsage: tokens(433) }));
    expect(dropped.changed).toBe(true);
    expect(dropped.toolCalls).toEqual({ added: [], removed: calls });
    expect(dropped.delta.totalTokens).toBe(-467);
    expect(diffStep('t1', side(), side({ attempts: 2 })).changed).toBe(true);
    expect(diffStep('t1', side({ status: 'failed', error: 'a' }), side({ status: 'failed', error: 'b' })).changed).toBe(true);
    expect(diffStep('t1', side({ tokenUsage: tokens(900) }), side({ tokenUsage: tokens(433) })).changed).toBe(false);
  });
});
