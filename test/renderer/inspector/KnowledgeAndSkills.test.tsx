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
let host: MemoryHost;

async function open(doc: object) {
  host = new MemoryHost();
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
/** The validation messages shown in the field around `control`. */
const problemsAround = (control: HTMLElement) =>
  within(control.closest('.insp-field') as HTMLElement)
    .queryAllByTestId('field-problem')
    .map((p) => p.textContent);
/** Sections of empty lists start folded. */
const unfold = (title: string) => {
  const toggle = screen.getByRole('button', { name: title });
  if (toggle.getAttribute('aria-expanded') !== 'true') fireEvent.click(toggle);
};
const card = (testId: string, index: number) => screen.getAllByTestId(testId)[index];

describe('crew knowledge sources', () => {
  it('adds text, file and URL sources, edits them, removes one, and undo restores each step', () => {
    render(<Inspector />);
    unfold('Knowledge');
    expect(store().doc?.knowledge).toBeUndefined();
    fireEvent.click(screen.getByTestId('add-knowledge-text'));
    expect(store().doc?.knowledge).toEqual([{ type: 'text', name: 'Notes 1', text: '' }]);

    const text = within(card('knowledge-source', 0)!);
    type(text.getByTestId('knowledge-name'), 'Style guide');
    type(text.getByTestId('knowledge-text'), 'Use short sentences.');
    expect(store().doc?.knowledge).toEqual([{ type: 'text', name: 'Style guide', text: 'Use short sentences.' }]);

    fireEvent.click(screen.getByTestId('add-knowledge-file'));
    type(within(card('knowledge-source', 1)!).getByTestId('knowledge-path'), 'knowledge/prices.csv');
    fireEvent.click(screen.getByTestId('add-knowledge-url'));
    type(within(card('knowledge-source', 2)!).getByTestId('knowledge-url'), 'https://example.com/guide');
    expect(store().doc?.knowledge).toEqual([
      { type: 'text', name: 'Style guide', text: 'Use short sentences.' },
      { type: 'file', path: 'knowledge/prices.csv' },
      { type: 'url', url: 'https://example.com/guide' },
    ]);
    expect(store().problems).toEqual([]);
    expect(card('knowledge-source', 1)!.textContent).toContain('knowledge/prices.csv');

    fireEvent.click(screen.getByRole('button', { name: 'Remove knowledge source 2' }));
    expect((store().doc?.knowledge as { type: string }[]).map((s) => s.type)).toEqual(['text', 'url']);
    act(() => store().undo());
    expect((store().doc?.knowledge as { type: string }[]).map((s) => s.type)).toEqual(['text', 'file', 'url']);
    // Typing the URL, adding it, typing the path: one undo step each.
    act(() => store().undo());
    expect(store().doc?.knowledge?.[2]).toEqual({ type: 'url', url: '' });
    act(() => store().undo());
    expect(store().doc?.knowledge).toHaveLength(2);
    act(() => store().undo());
    expect(store().doc?.knowledge?.[1]).toEqual({ type: 'file', path: '' });
    expect((within(card('knowledge-source', 1)!).getByTestId('knowledge-path') as HTMLInputElement).value).toBe('');
  });

  it('makes typing into the name and the text of a source separate undo steps', () => {
    render(<Inspector />);
    unfold('Knowledge');
    fireEvent.click(screen.getByTestId('add-knowledge-text'));
    const before = store().history.past.length;
    const source = within(card('knowledge-source', 0)!);
    for (const v of ['S', 'St', 'Style']) type(source.getByTestId('knowledge-name'), v);
    for (const v of ['U', 'Use it']) type(source.getByTestId('knowledge-text'), v);
    expect(store().history.past.length).toBe(before + 2);
    act(() => store().undo());
    expect(store().doc?.knowledge).toEqual([{ type: 'text', name: 'Style', text: '' }]);
  });

  it('shows a problem at knowledge.0.path under that path field, and only there', () => {
    render(<Inspector />);
    unfold('Knowledge');
    fireEvent.click(screen.getByTestId('add-knowledge-file'));
    fireEvent.click(screen.getByTestId('add-knowledge-text'));
    expect(store().problems.map((p) => p.path).sort()).toEqual(['knowledge.0.path', 'knowledge.1.text']);
    const path = within(card('knowledge-source', 0)!).getByTestId('knowledge-path');
    expect(problemsAround(path)).toEqual(['must not be empty']);
    expect(problemsAround(within(card('knowledge-source', 1)!).getByTestId('knowledge-name'))).toEqual([]);
    expect(problemsAround(within(card('knowledge-source', 1)!).getByTestId('knowledge-text'))).toEqual(['must not be empty']);
    expect(screen.queryByTestId('inspector-other-problems')).toBeNull();
    type(path, 'notes.md');
    expect(problemsAround(within(card('knowledge-source', 0)!).getByTestId('knowledge-path'))).toEqual([]);
  });

  it('shows sources already in the file, and a file source name when it has one', async () => {
    await act(() =>
      open({
        ...sequentialCrew(),
        knowledge: [
          { type: 'file', path: 'docs/handbook.pdf', name: 'Handbook' },
          { type: 'pdf', path: 'x.pdf' },
        ],
      }),
    );
    render(<Inspector />);
    unfold('Knowledge');
    const first = within(card('knowledge-source', 0)!);
    expect((first.getByTestId('knowledge-path') as HTMLInputElement).value).toBe('docs/handbook.pdf');
    expect((first.getByTestId('knowledge-name') as HTMLInputElement).value).toBe('Handbook');
    const unknown = card('knowledge-source', 1);
    expect(unknown!.getAttribute('data-type')).toBe('unknown');
    expect(within(unknown!).getAllByTestId('field-problem').length).toBeGreaterThan(0);
    fireEvent.click(within(unknown!).getByTestId('remove-knowledge'));
    expect(store().doc?.knowledge).toHaveLength(1);
  });

  it('sets knowledge chunking and retrieval settings; a too-large overlap shows under its field', () => {
    render(<Inspector />);
    unfold('Knowledge');
    type(screen.getByTestId('field-knowledge-limit'), '8');
    type(screen.getByTestId('field-knowledge-chunkSize'), '1000');
    type(screen.getByTestId('field-knowledge-chunkOverlap'), '1000');
    expect(store().doc?.knowledgeSettings).toEqual({ limit: 8, chunkSize: 1000, chunkOverlap: 1000 });
    expect(problemsAround(screen.getByTestId('field-knowledge-chunkOverlap'))).toEqual(['must be less than chunkSize (1000)']);
    expect(problemsAround(screen.getByTestId('field-knowledge-chunkSize'))).toEqual([]);
    act(() => store().undo());
    expect(store().doc?.knowledgeSettings).toEqual({ limit: 8, chunkSize: 1000 });
    for (const id of ['field-knowledge-limit', 'field-knowledge-chunkSize']) type(screen.getByTestId(id), '');
    expect('knowledgeSettings' in store().doc!).toBe(false);
  });

  it('removing the last source removes the field', () => {
    render(<Inspector />);
    unfold('Knowledge');
    fireEvent.click(screen.getByTestId('add-knowledge-url'));
    fireEvent.click(screen.getByTestId('remove-knowledge'));
    expect('knowledge' in store().doc!).toBe(false);
    expect(screen.getByText(/No knowledge sources/)).toBeTruthy();
  });
});

describe('agent knowledge and skills', () => {
  it('edits the agent’s own knowledge; a bad URL shows under the URL field', () => {
    select(['agent:writer']);
    render(<Inspector />);
    unfold('Knowledge');
    fireEvent.click(screen.getByTestId('add-knowledge-url'));
    const url = within(card('knowledge-source', 0)!).getByTestId('knowledge-url');
    type(url, 'not a url');
    expect(store().doc?.agents?.[1]!.knowledge).toEqual([{ type: 'url', url: 'not a url' }]);
    expect(store().problems.map((p) => p.path)).toEqual(['agents.1.knowledge.0.url']);
    expect(problemsAround(url)).toHaveLength(1);
    type(url, 'https://example.com/style');
    expect(problemsAround(url)).toEqual([]);
    expect(store().doc?.knowledge).toBeUndefined();
    act(() => store().undo());
    act(() => store().undo());
    expect(store().doc?.agents?.[1]!.knowledge).toBeUndefined();
  });

  it('adds, edits and removes skill files and inline skills; undo restores them', () => {
    select(['agent:writer']);
    render(<Inspector />);
    unfold('Skills');
    fireEvent.click(screen.getByTestId('add-skill-file'));
    expect(store().doc?.agents?.[1]!.skills).toEqual(['']);
    type(screen.getByTestId('skill-path'), 'skills/review.md');
    fireEvent.click(screen.getByTestId('add-skill-inline'));
    const inline = within(card('skill', 1)!);
    type(inline.getByTestId('skill-name'), 'tone');
    type(inline.getByTestId('skill-description'), 'Writing in the house tone');
    type(inline.getByTestId('skill-instructions'), 'Be plain.');
    expect(store().doc?.agents?.[1]!.skills).toEqual(['skills/review.md', { name: 'tone', description: 'Writing in the house tone', instructions: 'Be plain.' }]);
    expect(store().problems).toEqual([]);
    // An emptied description is removed (it defaults to "").
    type(inline.getByTestId('skill-description'), '');
    expect(store().doc?.agents?.[1]!.skills?.[1]).toEqual({ name: 'tone', instructions: 'Be plain.' });

    fireEvent.click(screen.getByRole('button', { name: 'Remove skill 1' }));
    expect(store().doc?.agents?.[1]!.skills).toEqual([{ name: 'tone', instructions: 'Be plain.' }]);
    act(() => store().undo());
    expect(store().doc?.agents?.[1]!.skills?.[0]).toBe('skills/review.md');
    expect((screen.getByTestId('skill-path') as HTMLInputElement).value).toBe('skills/review.md');
    fireEvent.click(screen.getByRole('button', { name: 'Remove skill 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove skill 1' }));
    expect('skills' in store().doc!.agents![1]!).toBe(false);
  });

  it('shows a problem at agents.1.skills.0 under that skill’s file field', () => {
    select(['agent:writer']);
    render(<Inspector />);
    unfold('Skills');
    fireEvent.click(screen.getByTestId('add-skill-file'));
    fireEvent.click(screen.getByTestId('add-skill-inline'));
    expect([...new Set(store().problems.map((p) => p.path))].sort()).toEqual(['agents.1.skills.0', 'agents.1.skills.1.instructions']);
    expect(problemsAround(screen.getByTestId('skill-path'))).toContain('must not be empty');
    type(screen.getByTestId('skill-path'), 'skills/review.txt');
    expect(problemsAround(screen.getByTestId('skill-path'))).toEqual(['a skill file must be a .md file']);
    type(screen.getByTestId('skill-path'), 'skills/review.md');
    expect(problemsAround(screen.getByTestId('skill-path'))).toEqual([]);
    expect(problemsAround(within(card('skill', 1)!).getByTestId('skill-instructions'))).toEqual(['must not be empty']);
    expect(problemsAround(within(card('skill', 1)!).getByTestId('skill-name'))).toEqual([]);
    expect(screen.queryByTestId('inspector-other-problems')).toBeNull();
  });
});
