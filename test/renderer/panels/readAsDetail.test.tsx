// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../../shared/events';
import { AgentDetail } from '../../../renderer/panels/trace/detail/AgentDetail';
import { ToolDetail } from '../../../renderer/panels/trace/detail/ToolDetail';
import type { TraceSpan } from '../../../renderer/stores/runView';
import { emptyUsage } from '../../../shared/usage';

afterEach(cleanup);

function span(kind: TraceSpan['kind'], events: Record<string, unknown>[]): TraceSpan {
  const envelope = { runId: 'run_1', ts: 1, spanId: 's2', parentSpanId: 's1' };
  return {
    id: 's2',
    kind,
    label: kind,
    status: 'done',
    start: 1,
    tokens: 0,
    depth: 1,
    children: [],
    events: events.map((e, i) => ({ ...envelope, seq: i + 1, ...e }) as unknown as RuntimeEvent),
  };
}

describe('the trace shows how a reply was read', () => {
  it('a tool call read from text says so', () => {
    render(
      <ToolDetail
        span={span('tool', [
          { type: 'tool.started', tool: 'calculator', args: { expression: '6*7' }, agentRole: 'Solver', callId: 'c1', readAs: ['text-tool-call'] },
          { type: 'tool.completed', tool: 'calculator', result: '42', durationMs: 1, resultAsAnswer: false },
        ])}
      />,
    );
    expect(screen.getByTestId('read-as').textContent).toBe('tool call read from text');
  });

  it('an answer read after the last marker says so; a literal one shows nothing', () => {
    const completed = { type: 'agent.completed', role: 'Solver', output: 'x', iterations: 1, tokenUsage: emptyUsage(), durationMs: 1 };
    render(<AgentDetail span={span('agent', [{ ...completed, readAs: ['last-final-answer', 'fenced-final-answer'] }])} />);
    expect(screen.getByTestId('read-as').textContent).toBe('the last of several "Final Answer:" markers; final answer without a stray code fence');
    cleanup();
    render(<AgentDetail span={span('agent', [completed])} />);
    expect(screen.queryByTestId('read-as')).toBeNull();
  });
});
