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

beforeEach(async () => {
  host = new MemoryHost();
  host.files.set(PATH, JSON.stringify(sequentialCrew()));
  setHost(host);
  useUiStore.getState().select([]);
  await store().load(PATH);
});

afterEach(async () => {
  cleanup();
  await store().flushSave();
});

const select = (ids: string[]) => act(() => useUiStore.getState().select(ids));

describe('Inspector', () => {
  it('edits a task description as one undo step per field visit', async () => {
    select(['task:brief']);
    render(<Inspector />);
    const description = screen.getByLabelText('Description') as HTMLTextAreaElement;
    expect(description.value).toBe('Write it.');
    for (const text of ['W', 'Wr', 'Write a brief']) fireEvent.change(description, { target: { value: text } });
    expect(store().doc?.tasks?.[2]!.description).toBe('Write a brief');
    expect(store().history.past).toHaveLength(1);
    fireEvent.blur(description);
    fireEvent.change(description, { target: { value: 'Write a short brief' } });
    expect(store().history.past).toHaveLength(2);
    act(() => store().undo());
    expect((screen.getByLabelText('Description') as HTMLTextAreaElement).value).toBe('Write a brief');
    act(() => store().undo());
    expect((screen.getByLabelText('Description') as HTMLTextAreaElement).value).toBe('Write it.');
  });

  it('shows the validation message under the field at fault', () => {
    select(['agent:writer']);
    render(<Inspector />);
    const role = screen.getByLabelText('Role');
    expect(screen.queryAllByTestId('field-problem')).toHaveLength(0);
    fireEvent.change(role, { target: { value: '' } });
    expect(store().problems.map((p) => p.path)).toEqual(['agents.1.role']);
    const field = role.closest('.insp-field') as HTMLElement;
    expect(within(field).getByRole('alert').textContent).toBe('must not be empty');
  });

  it('renames a task id and updates the references to it; the selection follows', () => {
    select(['task:research']);
    render(<Inspector />);
    const id = screen.getByLabelText('Id') as HTMLInputElement;
    fireEvent.change(id, { target: { value: 'facts' } });
    expect(store().doc?.tasks?.[0]!.id).toBe('research');
    fireEvent.keyDown(id, { key: 'Enter' });
    expect(store().doc?.tasks?.[0]!.id).toBe('facts');
    expect(store().doc?.tasks?.[2]!.context).toEqual(['facts', 'outline']);
    expect(useUiStore.getState().selectedNodeIds).toEqual(['task:facts']);
    expect((screen.getByLabelText('Id') as HTMLInputElement).value).toBe('facts');
  });

  it('refuses a taken id inline', () => {
    select(['task:research']);
    render(<Inspector />);
    const id = screen.getByLabelText('Id');
    fireEvent.change(id, { target: { value: 'brief' } });
    fireEvent.blur(id);
    expect(screen.getByText(/already has the id "brief"/)).toBeTruthy();
    expect(store().doc?.tasks?.[0]!.id).toBe('research');
  });

  it('parses the JSON schema box and shows the error while it is not JSON', () => {
    select(['task:outline']);
    render(<Inspector />);
    fireEvent.change(screen.getByTestId('field-output-format'), { target: { value: 'json' } });
    expect(store().doc?.tasks?.[1]!.output).toEqual({ format: 'json' });
    const schema = screen.getByTestId('field-output-schema');
    fireEvent.change(schema, { target: { value: '{ "type": ' } });
    expect(screen.getByTestId('json-error').textContent).toMatch(/Not valid JSON/);
    expect(store().doc?.tasks?.[1]!.output).toEqual({ format: 'json' });
    fireEvent.change(schema, { target: { value: '{ "type": "object" }' } });
    expect(screen.queryByTestId('json-error')).toBeNull();
    expect(store().doc?.tasks?.[1]!.output).toEqual({ format: 'json', schema: { type: 'object' } });
  });

  it('adds and edits guardrails of every kind', () => {
    select(['task:outline']);
    render(<Inspector />);
    const add = screen.getByTestId('add-guardrail');
    for (const kind of ['contains', 'not_contains', 'regex', 'length', 'json_schema', 'llm']) fireEvent.change(add, { target: { value: kind } });
    const guardrails = store().doc?.tasks?.[1]!.guardrails as { type: string }[];
    expect(guardrails.map((g) => g.type)).toEqual(['contains', 'not_contains', 'regex', 'length', 'json_schema', 'llm']);
    fireEvent.change(screen.getByTestId('guardrail-pattern'), { target: { value: '^\\d+$' } });
    expect(store().doc?.tasks?.[1]!.guardrails?.[2]).toEqual({ type: 'regex', pattern: '^\\d+$' });
    // The empty "contains" text is a problem shown on the guardrail's field.
    expect(screen.getAllByTestId('field-problem').length).toBeGreaterThan(0);
    fireEvent.click(screen.getAllByRole('button', { name: 'Remove guardrail' })[0]!);
    expect((store().doc?.tasks?.[1]!.guardrails as unknown[]).length).toBe(5);
  });

  it('assigns an agent, sets context, and toggles tools', () => {
    select(['task:outline']);
    render(<Inspector />);
    fireEvent.change(screen.getByTestId('field-agentId'), { target: { value: 'researcher' } });
    expect(store().doc?.tasks?.[1]!.agentId).toBe('researcher');
    fireEvent.click(screen.getByTestId('context-all'));
    expect('context' in store().doc!.tasks![1]!).toBe(false);
    fireEvent.click(screen.getByTestId('context-list'));
    expect(store().doc?.tasks?.[1]!.context).toEqual(['research']);
    select(['agent:writer']);
    fireEvent.click(screen.getByTestId('tool-calculator'));
    expect(store().doc?.agents?.[1]!.tools).toEqual([{ tool: 'calculator' }]);
    fireEvent.click(screen.getByLabelText('Ask before each use'));
    expect(store().doc?.agents?.[1]!.tools).toEqual([{ tool: 'calculator', requiresApproval: true }]);
  });

  it('edits the crew when nothing is selected, including the hierarchical manager', () => {
    render(<Inspector />);
    expect(screen.getByTestId('inspector-title').textContent).toBe('Research brief');
    fireEvent.change(screen.getByTestId('field-crew-name'), { target: { value: 'Brief' } });
    expect(store().doc?.name).toBe('Brief');
    fireEvent.change(screen.getByTestId('field-process'), { target: { value: 'hierarchical' } });
    expect(store().doc?.process).toBe('hierarchical');
    fireEvent.click(screen.getByTestId('manager-agent'));
    expect(store().doc?.manager).toEqual({ agentId: 'researcher' });
    fireEvent.click(screen.getByTestId('add-input'));
    expect(store().doc?.inputs).toEqual([{ name: 'input1' }]);
  });

  it('shows the flow form for a flow document, not the crew form', async () => {
    host.files.set('pipeline.flow.json', JSON.stringify({ kind: 'flow', version: 1, id: 'pipeline', name: 'Pipeline', methods: [{ id: 'a', name: 'a', trigger: { start: true }, body: { type: 'llm', prompt: 'Hi' } }] }));
    await act(() => store().load('pipeline.flow.json'));
    render(<Inspector />);
    expect(screen.getByTestId('inspector-title').textContent).toBe('Pipeline');
    expect(screen.getByTestId('field-flow-name')).toBeTruthy();
    expect(screen.queryByTestId('field-crew-name')).toBeNull();
  });
});
