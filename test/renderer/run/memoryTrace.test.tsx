// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventInput, RuntimeEvent } from '../../../shared/events';
import { emptyUsage } from '../../../shared/usage';
import { SpanDetail } from '../../../renderer/panels/trace/SpanDetail';
import { useMemoryStore } from '../../../renderer/stores/memoryStore';
import { foldRunEvents } from '../../../renderer/stores/reduceRunEvent';
import { emptyRunView, type RunView, type TraceSpan } from '../../../renderer/stores/runView';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { setHost } from '../../../renderer/host/hostContext';
import { FakeHost } from './fakeHost';

/**
 * A hand-written run with memory: task "brief" recalls two memories and one knowledge chunk; its
 * first attempt is rejected (memory write discarded), the second commits (one skipped duplicate, two
 * decisions); task "notes" fails to write its memory.
 */
function memoryRun(): RuntimeEvent[] {
  const events: RuntimeEvent[] = [];
  const emit = (input: EventInput, spanId: string, parentSpanId?: string) =>
    events.push({ ...input, runId: 'run_mem', seq: events.length + 1, ts: 1_700_000_000_000 + events.length * 10, spanId, ...(parentSpanId ? { parentSpanId } : {}) } as RuntimeEvent);
  const usage = emptyUsage();
  emit({ type: 'run.started', documentId: 'solar', documentName: 'Solar', process: 'sequential', inputs: {}, stepIds: ['brief', 'notes'] }, 's1');
  emit({ type: 'task.started', taskId: 'brief', index: 0, agentRole: 'Writer', description: 'Write the brief', expectedOutput: 'A brief', async: false, context: '' }, 's2', 's1');
  emit(
    {
      type: 'memory.recall',
      taskId: 'brief',
      agentRole: 'Writer',
      query: 'Write the brief',
      scope: '/crew/solar',
      records: [
        { id: 'mem_a', score: 0.81, content: 'Panels cost 250 euros each', reasons: ['similar meaning (0.74)', 'shares words: panels'] },
        { id: 'mem_b', score: 0.42, content: 'The roof faces south', reasons: ['recent (2 days)'] },
      ],
    },
    's2',
    's1',
  );
  emit(
    { type: 'knowledge.retrieved', taskId: 'brief', agentRole: 'Writer', query: 'Write the brief', chunks: [{ id: 'k1', source: 'prices.csv', score: 0.66, content: 'model,price\nA200,250' }] },
    's2',
    's1',
  );
  emit({ type: 'agent.started', agentId: 'writer', role: 'Writer', taskId: 'brief', tools: [], model: 'scripted:demo', mode: 'none' }, 's3', 's2');
  emit({ type: 'agent.completed', role: 'Writer', output: 'draft', iterations: 1, tokenUsage: usage, durationMs: 5 }, 's3', 's2');
  emit({ type: 'memory.write.staged', taskId: 'brief', agentRole: 'Writer', attempt: 1, policy: 'after-guardrail', scope: '/crew/solar', saved: [], extract: true }, 's4', 's2');
  emit({ type: 'guardrail.started', taskId: 'brief', index: 0, guardrailType: 'contains', attempt: 1 }, 's5', 's2');
  emit({ type: 'guardrail.failed', taskId: 'brief', index: 0, guardrailType: 'contains', attempt: 1, reason: 'must say SHIP IT' }, 's5', 's2');
  emit({ type: 'memory.write.discarded', taskId: 'brief', attempt: 1, reason: 'the guardrail rejected the output', dropped: 1 }, 's4', 's2');
  emit({ type: 'task.retrying', taskId: 'brief', attempt: 2, maxRetries: 3, reason: 'must say SHIP IT', rejectedOutput: 'draft' }, 's2', 's1');
  emit({ type: 'memory.write.staged', taskId: 'brief', agentRole: 'Writer', attempt: 2, policy: 'after-guardrail', scope: '/crew/solar', saved: ['Client wants it short'], extract: true }, 's6', 's2');
  emit({ type: 'memory.write.skipped', taskId: 'brief', content: 'Panels cost 250 euros each', reason: 'near-duplicate', duplicateOf: 'mem_a', similarity: 0.99 }, 's6', 's2');
  emit({ type: 'memory.write.decision', taskId: 'brief', action: 'insert', content: 'Client wants it short', recordId: 'mem_c', similar: [], reason: 'nothing similar', decidedBy: 'rule' }, 's6', 's2');
  emit(
    { type: 'memory.write.decision', taskId: 'brief', action: 'update', content: 'The roof faces south-west', recordId: 'mem_b', similar: [{ id: 'mem_b', similarity: 0.9 }], reason: 'more precise', decidedBy: 'model', readAs: ['json-in-prose'] },
    's6',
    's2',
  );
  emit({ type: 'memory.write.committed', taskId: 'brief', attempt: 2, inserted: 1, updated: 1, deleted: 0, skipped: 1, recordIds: ['mem_c', 'mem_b'], readAs: ['fenced-json'] }, 's6', 's2');
  emit({ type: 'task.completed', taskId: 'brief', agentRole: 'Writer', raw: 'SHIP IT', tokenUsage: usage, durationMs: 100 }, 's2', 's1');
  emit({ type: 'task.started', taskId: 'notes', index: 1, agentRole: 'Writer', description: 'Notes', expectedOutput: 'Notes', async: false, context: '' }, 's7', 's1');
  emit({ type: 'memory.write.staged', taskId: 'notes', agentRole: 'Writer', attempt: 1, policy: 'immediate', scope: '/crew/solar', saved: [], extract: true }, 's8', 's7');
  emit({ type: 'memory.write.failed', taskId: 'notes', attempt: 1, error: 'embedder unreachable' }, 's8', 's7');
  emit({ type: 'task.completed', taskId: 'notes', agentRole: 'Writer', raw: 'notes', tokenUsage: usage, durationMs: 50 }, 's7', 's1');
  emit({ type: 'run.completed', output: 'notes', tokenUsage: usage, durationMs: 300 }, 's1');
  return events;
}

const fold = (events: RuntimeEvent[]): RunView => foldRunEvents(emptyRunView('run_mem'), events);
const span = (view: RunView, id: string): TraceSpan => view.spans.get(id)!;

describe('reduceRunEvent: memory and knowledge events', () => {
  const events = memoryRun();
  const view = fold(events);

  it('opens a memory span per write attempt under its task, and closes it by how the write ended', () => {
    const brief = span(view, 's2');
    expect(brief.children.map((id) => span(view, id).kind)).toEqual(['agent', 'memory', 'guardrail', 'retry', 'memory']);
    const first = span(view, 's4');
    expect(first).toMatchObject({ kind: 'memory', label: 'memory write · attempt 1', status: 'discarded', taskId: 'brief' });
    expect(first.sublabel).toBe('discarded 1 · the guardrail rejected the output');
    const second = span(view, 's6');
    expect(second).toMatchObject({ kind: 'memory', label: 'memory write · attempt 2', status: 'done', sublabel: '1 new · 1 updated · 1 duplicate skipped' });
    expect(second.events.map((e) => e.type)).toEqual(['memory.write.staged', 'memory.write.skipped', 'memory.write.decision', 'memory.write.decision', 'memory.write.committed']);
    expect(span(view, 's8')).toMatchObject({ status: 'failed', sublabel: 'embedder unreachable' });
    expect(Object.keys(view.book.open)).toEqual([]);
  });

  it('records recall and knowledge on the task span, and keeps a write span open until it ends', () => {
    expect(span(view, 's2').events.map((e) => e.type)).toContain('memory.recall');
    expect(span(view, 's2').events.map((e) => e.type)).toContain('knowledge.retrieved');
    const staged = fold(events.slice(0, 13));
    expect(span(staged, 's6')).toMatchObject({ status: 'running', sublabel: 'after guardrails' });
    expect(staged.book.open.s6).toBe(true);
    // A write still staged when the run fails ends with it.
    const cut = [...events.slice(0, 13), { type: 'run.failed', error: 'boom', errorName: 'Error', tokenUsage: emptyUsage(), durationMs: 1, runId: 'run_mem', seq: 14, ts: 1, spanId: 's1' } as RuntimeEvent];
    expect(span(fold(cut), 's6').status).toBe('failed');
  });

  it('builds a span from an end event whose start is missing (a partial log)', () => {
    const partial = fold([events[0]!, events[1]!, { ...events.find((e) => e.type === 'memory.write.committed')!, seq: 3 }]);
    expect(span(partial, 's6')).toMatchObject({ kind: 'memory', status: 'done', parentId: 's2' });
  });
});

describe('trace detail for memory', () => {
  const view = fold(memoryRun());
  afterEach(() => cleanup());

  it('shows, on a task, the memories recalled into its prompt and the knowledge retrieved', () => {
    setHost(new FakeHost({ 'memory.search': () => ({ matches: [] }), 'memory.scopes': () => ({ scopes: [] }) }));
    render(<SpanDetail span={span(view, 's2')} view={view} onClose={() => undefined} />);
    const recalled = screen.getByTestId('task-recalled-memories');
    expect(within(recalled).getAllByTestId('recalled-memory').map((el) => el.getAttribute('data-memory-id'))).toEqual(['mem_a', 'mem_b']);
    expect(recalled.textContent).toContain('Panels cost 250 euros each');
    expect(recalled.textContent).toContain('0.81');
    expect(recalled.textContent).toContain('shares words: panels');
    const knowledge = screen.getByTestId('task-retrieved-knowledge');
    expect(knowledge.textContent).toContain('prices.csv');
    expect(knowledge.textContent).toContain('0.66');
    expect(knowledge.textContent).toContain('A200,250');

    fireEvent.click(within(recalled).getAllByTestId('recalled-memory-open')[0]!);
    expect(useUiStore.getState().view).toBe('memory');
    expect(useMemoryStore.getState().query).toBe('Panels cost 250 euros each');
    useUiStore.getState().setView('canvas');
  });

  it('shows a committed write: policy, saved items, decisions with similar records, skipped duplicates, counts', () => {
    render(<SpanDetail span={span(view, 's6')} view={view} onClose={() => undefined} />);
    const detail = screen.getByTestId('span-detail');
    expect(detail.getAttribute('data-kind')).toBe('memory');
    expect(detail.textContent).toContain('after the guardrails accept');
    expect(detail.textContent).toContain('Client wants it short');
    expect(detail.textContent).toContain('1 new · 1 updated · 0 deleted · 1 skipped');
    const decisions = screen.getAllByTestId('memory-decision');
    expect(decisions.map((d) => d.getAttribute('data-action'))).toEqual(['insert', 'update']);
    expect(decisions[1]!.textContent).toContain('more precise');
    expect(decisions[1]!.textContent).toContain('decided by model');
    expect(decisions[1]!.textContent).toContain('mem_b 0.90');
    // How the memory model's replies were read, when not literally (extraction on the write, consolidation on its decision).
    expect(detail.textContent).toContain('Extraction read as');
    expect(screen.getAllByTestId('read-as').map((e) => e.textContent)).toEqual(['JSON from a code fence', 'JSON from among prose']);
    expect(decisions[1]!.textContent).toContain('read as JSON from among prose');
    expect(decisions[0]!.textContent).not.toContain('read as');
    expect(screen.getByTestId('memory-skipped').textContent).toContain('same as mem_a (0.99)');
  });

  it('shows why a write was discarded, and a failed write', () => {
    render(<SpanDetail span={span(view, 's4')} view={view} onClose={() => undefined} />);
    expect(screen.getByTestId('memory-discarded').textContent).toContain('the guardrail rejected the output');
    expect(screen.getByTestId('span-detail').textContent).toContain('discarded');
    cleanup();
    render(<SpanDetail span={span(view, 's8')} view={view} onClose={() => undefined} />);
    expect(screen.getByTestId('memory-failed').textContent).toContain('embedder unreachable');
    expect(screen.getByTestId('span-detail').textContent).toContain('immediately (CrewAI)');
  });
});
