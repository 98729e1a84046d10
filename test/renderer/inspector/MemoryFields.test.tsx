// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Inspector } from '../../../renderer/panels/Inspector';
import { setHost } from '../../../renderer/host/hostContext';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { sequentialCrew } from '../document/crewFixtures';
import { MemoryHost } from '../document/memoryHost';

const PATH = 'brief.crew.json';
const store = () => useDocumentStore.getState();

async function open(doc: object) {
  const host = new MemoryHost();
  host.files.set(PATH, JSON.stringify(doc));
  setHost(host);
  useUiStore.getState().select([]);
  await store().load(PATH);
}

beforeEach(() => open(sequentialCrew()));

afterEach(async () => {
  cleanup();
  await store().flushSave();
});

const select = (ids: string[]) => act(() => useUiStore.getState().select(ids));
const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });
const problemsAround = (control: HTMLElement) =>
  within(control.closest('.insp-field') as HTMLElement)
    .queryAllByTestId('field-problem')
    .map((p) => p.textContent);

describe('crew memory', () => {
  it('turns memory on and sets scope, commit policy and memory model; undo restores each step', () => {
    render(<Inspector />);
    expect(screen.queryByTestId('memory-settings')).toBeNull();
    fireEvent.click(screen.getByTestId('field-memory-enabled'));
    expect(store().doc?.memory).toEqual({ enabled: true });

    const scope = screen.getByTestId('field-memory-scope') as HTMLInputElement;
    expect(scope.placeholder).toBe('/crew/research-brief');
    type(scope, '/team/briefs');
    const commit = screen.getByTestId('field-memory-commit') as HTMLSelectElement;
    expect(commit.value).toBe('after-guardrail');
    expect(problemsAround(commit)).toEqual([]);
    expect(commit.closest('.insp-field')?.textContent).toMatch(/guardrails accept the output/);
    fireEvent.change(commit, { target: { value: 'immediate' } });
    expect(commit.closest('.insp-field')?.textContent).toMatch(/even one a guardrail then rejects/);
    fireEvent.change(screen.getByTestId('insp-memory-llm-mode'), { target: { value: 'inline' } });
    type(screen.getByTestId('insp-memory-llm-model'), 'memory-model');
    expect(store().doc?.memory).toEqual({ enabled: true, scope: '/team/briefs', commit: 'immediate', llm: { provider: 'openai', model: 'memory-model' } });
    expect(store().problems).toEqual([]);

    // Back to the default commit policy removes the key.
    fireEvent.change(commit, { target: { value: 'after-guardrail' } });
    expect('commit' in (store().doc?.memory ?? {})).toBe(false);
    act(() => store().undo());
    expect(store().doc?.memory?.commit).toBe('immediate');
    act(() => store().undo()); // the model edits (mode + typing the model name coalesce)
    expect(store().doc?.memory).toEqual({ enabled: true, scope: '/team/briefs', commit: 'immediate' });
    expect((screen.getByTestId('insp-memory-llm-mode') as HTMLSelectElement).value).toBe('default');
    act(() => store().undo());
    act(() => store().undo());
    expect(store().doc?.memory).toEqual({ enabled: true });
    act(() => store().undo());
    expect(store().doc?.memory).toBeUndefined();
    expect((screen.getByTestId('field-memory-enabled') as HTMLInputElement).checked).toBe(false);
  });

  it('turning memory off keeps its settings for when it is turned back on', async () => {
    await act(() => open({ ...sequentialCrew(), memory: { scope: '/shared', commit: 'immediate' } }));
    render(<Inspector />);
    expect((screen.getByTestId('field-memory-scope') as HTMLInputElement).value).toBe('/shared');
    fireEvent.click(screen.getByTestId('field-memory-enabled'));
    expect(store().doc?.memory).toEqual({ scope: '/shared', commit: 'immediate', enabled: false });
    expect(screen.queryByTestId('memory-settings')).toBeNull();
    fireEvent.click(screen.getByTestId('field-memory-enabled'));
    expect(store().doc?.memory).toEqual({ scope: '/shared', commit: 'immediate', enabled: true });
  });

  it('shows a bad commit policy under its field, and under the switch while memory is off', async () => {
    await act(() => open({ ...sequentialCrew(), memory: { commit: 'later' } }));
    render(<Inspector />);
    const commit = screen.getByTestId('field-memory-commit') as HTMLSelectElement;
    expect(commit.value).toBe('later');
    expect(problemsAround(commit)).toHaveLength(1);
    expect(store().problems.map((p) => p.path)).toEqual(['memory.commit']);
    fireEvent.click(screen.getByTestId('field-memory-enabled'));
    const toggle = screen.getByTestId('field-memory-enabled').closest('.insp-check') as HTMLElement;
    expect(within(toggle).getAllByTestId('field-problem')[0]!.textContent).toMatch(/^commit: /);
  });
});

describe('agent memory', () => {
  it('"Use crew memory" follows the crew by default; unchecking writes memory: false; undo restores', async () => {
    await act(() => open({ ...sequentialCrew(), memory: { enabled: true } }));
    select(['agent:writer']);
    render(<Inspector />);
    const box = screen.getByTestId('field-agent-memory') as HTMLInputElement;
    expect(box.checked).toBe(true);
    expect(screen.getByLabelText(/Use crew memory/).closest('.insp-check')?.textContent).toMatch(/crew’s scope/);
    fireEvent.click(box);
    expect(store().doc?.agents?.[1]!.memory).toBe(false);
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    expect('memory' in store().doc!.agents![1]!).toBe(false);
    act(() => store().undo());
    expect(store().doc?.agents?.[1]!.memory).toBe(false);
    act(() => store().undo());
    expect('memory' in store().doc!.agents![1]!).toBe(false);
  });

  it('says so when the crew has memory off', () => {
    select(['agent:writer']);
    render(<Inspector />);
    expect(screen.getByLabelText(/Use crew memory/).closest('.insp-check')?.textContent).toMatch(/Crew memory is off/);
  });
});
