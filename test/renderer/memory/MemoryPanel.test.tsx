// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostMemoryRecord, HostRequest } from '../../../shared/host-api';
import { setHost } from '../../../renderer/host/hostContext';
import { MemoryPanel } from '../../../renderer/panels/memory/MemoryPanel';
import { MEMORY_PAGE_SIZE, countInScope, useMemoryStore } from '../../../renderer/stores/memoryStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { FakeHost } from '../run/fakeHost';

function record(id: string, content: string, extra: Partial<HostMemoryRecord> = {}): HostMemoryRecord {
  return {
    id,
    content,
    scope: '/crew/solar',
    categories: [],
    importance: 0.5,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    lastAccessedAt: 1_700_000_000_000,
    source: { kind: 'manual' },
    private: false,
    metadata: {},
    status: 'active',
    history: [],
    ...extra,
  };
}

let records: HostMemoryRecord[];
let fake: FakeHost;

beforeEach(() => {
  records = [
    record('mem_a', 'Panels cost 250 euros each', { categories: ['cost'], importance: 0.9, source: { kind: 'task', runId: 'run_1', taskId: 'research', agentRole: 'Researcher' } }),
    record('mem_b', 'The client prefers short briefs', { private: true, scope: '/crew/solar/agent/writer', history: [{ content: 'Client likes long briefs', updatedAt: 1_600_000_000_000, reason: 'edited by hand' }] }),
  ];
  fake = new FakeHost({
    'memory.list': (r) => ({ records: records.slice(r.offset ?? 0, (r.offset ?? 0) + (r.limit ?? 100)), total: records.length }),
    'memory.scopes': () => ({ scopes: [{ scope: '/crew/solar', count: 1 }, { scope: '/crew/solar/agent/writer', count: 1 }, { scope: '/crew/other', count: 3 }] }),
    'memory.search': () => ({
      matches: [{ record: records[0]!, score: 0.734, semantic: 0.8, recency: 0.9, importance: 0.9, reasons: ['similar meaning (0.80)', 'shares words: panels, cost'] }],
    }),
    'memory.update': (r) => {
      const before = records.find((x) => x.id === r.id)!;
      const after = { ...before, ...r, history: r.content ? [...before.history, { content: before.content, updatedAt: before.updatedAt, reason: 'edited by hand' }] : before.history } as HostMemoryRecord;
      records = records.map((x) => (x.id === r.id ? after : x));
      return { record: after };
    },
    'memory.forget': (r) => {
      records = records.filter((x) => !r.ids.includes(x.id));
      return { removed: r.ids.length };
    },
    'memory.reset': () => ({ removed: 2 }),
    'memory.add': (r) => ({ record: record('mem_new', r.content, { scope: r.scope }) }),
  });
  setHost(fake);
  useMemoryStore.setState({ filters: { includePrivate: true }, query: '', records: [], matches: [], total: 0, offset: 0, scopes: [] });
});

afterEach(() => cleanup());

const calls = <C extends Parameters<FakeHost['invoke']>[0]>(channel: C) => fake.calls.filter((c) => c.channel === channel).map((c) => c.request as HostRequest<C>);

describe('MemoryPanel', () => {
  it('lists memories with scope, categories, importance, source and a private marker', async () => {
    render(<MemoryPanel />);
    await waitFor(() => expect(screen.getAllByTestId('memory-row')).toHaveLength(2));
    const [a, b] = screen.getAllByTestId('memory-row');
    expect(a!.textContent).toContain('Panels cost 250 euros each');
    expect(a!.textContent).toContain('/crew/solar');
    expect(a!.textContent).toContain('cost');
    expect(a!.textContent).toContain('0.90');
    expect(within(a!).getByTestId('memory-source-run').textContent).toBe('run_1');
    expect(within(a!).queryByTestId('memory-private')).toBeNull();
    expect(within(b!).getByTestId('memory-private')).toBeTruthy();
    expect(screen.getByTestId('memory-count').textContent).toBe('2 memories');
    expect(calls('memory.list')[0]).toMatchObject({ includePrivate: true, limit: MEMORY_PAGE_SIZE, offset: 0 });
    const scopeOptions = within(screen.getByTestId('memory-filter-scope')).getAllByRole('option').map((o) => o.textContent);
    expect(scopeOptions).toEqual(['All scopes', '/crew/solar (1)', '/crew/solar/agent/writer (1)', '/crew/other (3)']);
  });

  it('searches with the recall preview: score, its parts and reasons per row', async () => {
    render(<MemoryPanel />);
    await waitFor(() => expect(screen.getAllByTestId('memory-row')).toHaveLength(2));
    fireEvent.change(screen.getByTestId('memory-search'), { target: { value: 'panel cost' } });
    await waitFor(() => expect(screen.getAllByTestId('memory-row')).toHaveLength(1));
    expect(calls('memory.search')[0]).toMatchObject({ query: 'panel cost', includePrivate: true });
    const score = screen.getByTestId('memory-score');
    expect(score.textContent).toContain('0.73');
    expect(score.textContent).toContain('sem 0.80');
    expect(score.textContent).toContain('rec 0.90');
    expect(screen.getByTestId('memory-reasons').textContent).toContain('shares words: panels, cost');
    expect(screen.getByTestId('memory-count').textContent).toBe('1 match');
  });

  it('filters by scope and source run', async () => {
    render(<MemoryPanel />);
    await waitFor(() => expect(screen.getAllByTestId('memory-row')).toHaveLength(2));
    await act(async () => {
      fireEvent.change(screen.getByTestId('memory-filter-scope'), { target: { value: '/crew/other' } });
    });
    expect(calls('memory.list').at(-1)).toMatchObject({ scope: '/crew/other', offset: 0 });
    await act(() => useMemoryStore.getState().setFilters({ runId: 'run_1' }));
    expect(calls('memory.list').at(-1)).toMatchObject({ scope: '/crew/other', runId: 'run_1' });
    expect(screen.getByTestId('memory-reset').textContent).toBe('Reset scope…');
  });

  it('edits only what changed and shows the history of earlier contents', async () => {
    render(<MemoryPanel />);
    await waitFor(() => expect(screen.getAllByTestId('memory-row')).toHaveLength(2));
    fireEvent.click(within(screen.getAllByTestId('memory-row')[1]!).getByTestId('memory-edit'));
    const dialog = screen.getByTestId('memory-edit-dialog');
    expect(within(dialog).getAllByTestId('memory-history-item')[0]!.textContent).toContain('Client likes long briefs');
    expect(within(dialog).getByTestId('memory-history').textContent).toContain('edited by hand');
    const save = within(dialog).getByTestId('memory-edit-save') as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(within(dialog).getByTestId('memory-field-content'), { target: { value: 'The client wants one page' } });
    fireEvent.change(within(dialog).getByTestId('memory-field-categories'), { target: { value: 'style, client, style' } });
    await act(async () => fireEvent.click(save));
    expect(calls('memory.update')).toEqual([{ id: 'mem_b', content: 'The client wants one page', categories: ['style', 'client'] }]);
    expect(screen.queryByTestId('memory-edit-dialog')).toBeNull();
    expect(screen.getAllByTestId('memory-row')[1]!.textContent).toContain('The client wants one page');
  });

  it('deletes after confirmation, and resets a scope naming it and its count', async () => {
    render(<MemoryPanel />);
    await waitFor(() => expect(screen.getAllByTestId('memory-row')).toHaveLength(2));
    fireEvent.click(within(screen.getAllByTestId('memory-row')[0]!).getByTestId('memory-delete'));
    expect(calls('memory.forget')).toEqual([]);
    await act(async () => fireEvent.click(within(screen.getByTestId('memory-delete-dialog')).getByTestId('memory-confirm')));
    expect(calls('memory.forget')).toEqual([{ ids: ['mem_a'] }]);
    expect(screen.getAllByTestId('memory-row')).toHaveLength(1);

    await act(() => useMemoryStore.getState().setFilters({ scope: '/crew/solar' }));
    fireEvent.click(screen.getByTestId('memory-reset'));
    const reset = screen.getByTestId('memory-reset-dialog');
    expect(within(reset).getByTestId('memory-reset-summary').textContent).toContain('the 2 memories in /crew/solar');
    expect(within(reset).getByTestId('memory-confirm').textContent).toBe('Delete 2 memories');
    await act(async () => fireEvent.click(within(reset).getByTestId('memory-confirm')));
    expect(calls('memory.reset')).toEqual([{ scope: '/crew/solar' }]);
  });

  it('refreshes when the host says memories changed', async () => {
    render(<MemoryPanel />);
    await waitFor(() => expect(screen.getAllByTestId('memory-row')).toHaveLength(2));
    records = [...records, record('mem_c', 'A run just wrote this')];
    await act(async () => fake.push({ kind: 'memory.changed' }));
    await waitFor(() => expect(screen.getAllByTestId('memory-row')).toHaveLength(3));
  });

  it('adds a memory by hand in a scope', async () => {
    render(<MemoryPanel />);
    await waitFor(() => expect(screen.getAllByTestId('memory-row')).toHaveLength(2));
    fireEvent.click(screen.getByTestId('memory-add'));
    const dialog = screen.getByTestId('memory-add-dialog');
    fireEvent.change(within(dialog).getByTestId('memory-field-content'), { target: { value: 'Inverters last ten years' } });
    fireEvent.change(within(dialog).getByTestId('memory-field-scope'), { target: { value: 'crew/solar' } });
    expect((within(dialog).getByTestId('memory-add-save') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByTestId('memory-field-scope'), { target: { value: '/crew/solar' } });
    await act(async () => fireEvent.click(within(dialog).getByTestId('memory-add-save')));
    expect(calls('memory.add')).toEqual([{ content: 'Inverters last ten years', scope: '/crew/solar', categories: [], importance: 0.5, private: false }]);
  });

  it('counts a scope with the scopes below it, and "/" as everything', () => {
    const scopes = [
      { scope: '/crew/a', count: 1 },
      { scope: '/crew/a/agent/x', count: 2 },
      { scope: '/crew/ab', count: 4 },
    ];
    expect(countInScope(scopes, '/crew/a')).toBe(3);
    expect(countInScope(scopes, '/')).toBe(7);
    useUiStore.getState().setView('canvas');
  });
});
