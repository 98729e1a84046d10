// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostBatch } from '../../../shared/host-api';
import { emptyUsage } from '../../../shared/usage';
import { BatchRunDialog } from '../../../renderer/dialogs/batchRun/BatchRunDialog';
import { RunInputsDialog } from '../../../renderer/dialogs/RunInputsDialog';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { useBatchRunStore } from '../../../renderer/dialogs/batchRun/batchRunStore';
import { checkRows, readRows, rowInputs } from '../../../renderer/dialogs/batchRun/batchTable';
import type { CrewInput } from '../../../renderer/dialogs/crewInputs';
import { setHost } from '../../../renderer/host/hostContext';
import { HostCallError } from '../../../renderer/host/hostError';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { FakeHost } from '../run/fakeHost';

const INPUTS: CrewInput[] = [{ name: 'city' }, { name: 'tone', default: 'warm' }];

describe('reading pasted rows (the CLI rules, in the table columns)', () => {
  it('a spreadsheet selection (TSV, header first) becomes rows in the crew input order', () => {
    expect(readRows('tone\tcity\r\ndry\tGhent\r\n\tOslo\r\n', INPUTS)).toEqual({ ok: true, rows: [['Ghent', 'dry'], ['Oslo', '']] });
    // A cell the spreadsheet quoted (it holds a tab and a line break) stays one cell.
    expect(readRows('city\ttone\n"Lima\tPeru"\t"short,\nplain"\n', INPUTS)).toEqual({ ok: true, rows: [['Lima\tPeru', 'short,\nplain']] });
  });

  it('CSV with quotes, and JSON lines (numbers become text), are read as the CLI reads them', () => {
    expect(readRows('city,tone\n"Oslo","dry, short"\nLima,""\n', INPUTS)).toEqual({ ok: true, rows: [['Oslo', 'dry, short'], ['Lima', '']] });
    expect(readRows('{"city": "Ghent"}\n\n{"city": 7, "tone": "dry"}\n', INPUTS)).toEqual({ ok: true, rows: [['Ghent', ''], ['7', 'dry']] });
  });

  it('malformed text names the line; an unknown column names the column; nothing is added', () => {
    expect(readRows('city,tone\nGhent\n', INPUTS)).toEqual({ ok: false, problems: [{ where: 'line 2', message: 'expected 2 values (city, tone), got 1' }] });
    expect(readRows('city,tone\n"Ghent,warm\n', INPUTS)).toEqual({ ok: false, problems: [{ where: 'line 2', message: 'a quoted value is never closed' }] });
    expect(readRows('{"city": "Ghent"}\n{"city": \n', INPUTS)).toMatchObject({ ok: false, problems: [{ where: 'line 2', message: expect.stringContaining('not valid JSON') }] });
    expect(readRows('town,tone\nGhent,dry\n', INPUTS)).toEqual({ ok: false, problems: [{ where: 'line 1, column "town"', message: '"town" is not an input of this crew (its inputs: city, tone)' }] });
    expect(readRows('city,city\nGhent,Lima\n', INPUTS)).toEqual({ ok: false, problems: [{ where: 'line 1', message: 'the column "city" appears twice' }] });
    expect(readRows('city,tone\n', INPUTS)).toMatchObject({ ok: false, problems: [{ where: 'line 1', message: expect.stringContaining('no rows') }] });
  });

  it('an empty required cell is named by row and column; empty cells with a default are left to the default', () => {
    expect(checkRows([['Ghent', ''], ['', 'dry'], ['  ', '']], INPUTS)).toEqual([
      { where: 'row 2, column "city"', message: 'empty, and the crew has no default for it' },
      { where: 'row 3, column "city"', message: 'empty, and the crew has no default for it' },
    ]);
    expect(rowInputs(['Ghent', ''], INPUTS)).toEqual({ city: 'Ghent' });
  });
});

const PATH = 'guide.crew.json';
const CREW = {
  kind: 'crew',
  version: 1,
  id: 'guide',
  name: 'City guide',
  inputs: [{ name: 'city' }, { name: 'tone', default: 'warm' }],
  agents: [{ id: 'g', role: 'Guide', goal: 'Describe cities' }],
  tasks: [{ id: 'describe', description: 'Describe {city} in a {tone} tone.', expectedOutput: 'One line', agentId: 'g' }],
};

function batchOf(rows: Record<string, string>[], statuses: HostBatch['rows'][number]['status'][]): HostBatch {
  const done = statuses.every((s) => s === 'completed' || s === 'failed');
  return {
    batchId: 'batch_1',
    path: PATH,
    concurrency: 2,
    status: done ? (statuses.every((s) => s === 'completed') ? 'completed' : 'failed') : 'running',
    rows: rows.map((inputs, index) => ({
      index,
      runId: `run_${index}`,
      inputs,
      status: statuses[index]!,
      opened: statuses[index] !== 'queued',
      tokenUsage: statuses[index] === 'completed' ? { ...emptyUsage(), totalTokens: 120, requests: 1, costUsd: 0.0012 } : emptyUsage(),
    })),
  };
}

let host: FakeHost;
let current: HostBatch | undefined;

beforeEach(() => {
  current = undefined;
  host = new FakeHost({
    'documents.read': ({ path }) => ({ path, document: CREW, text: JSON.stringify(CREW), problems: [], modifiedAt: 1 }),
    'runs.startBatch': ({ rows }) => {
      current = batchOf(rows, rows.map(() => 'queued'));
      return current;
    },
    'runs.batch': () => current!,
    'runs.cancelBatch': () => {
      current = { ...current!, status: 'cancelled', rows: current!.rows.map((r) => (r.status === 'completed' || r.status === 'failed' ? r : { ...r, status: 'cancelled' })) };
      return { cancelled: 1 };
    },
  });
  setHost(host);
  useDocumentStore.setState({ path: PATH });
  useBatchRunStore.setState({ open: true, batch: undefined, error: undefined });
});
afterEach(() => {
  cleanup();
  useBatchRunStore.setState({ open: false, batch: undefined });
  useDocumentStore.setState({ path: undefined });
});

function paste(text: string) {
  fireEvent.paste(screen.getByTestId('batch-paste'), { clipboardData: { getData: (type: string) => (type === 'text/plain' ? text : '') } });
}

describe('BatchRunDialog', () => {
  it('pasted rows fill the table; Run starts one run per row and the results follow the host', async () => {
    render(<BatchRunDialog />);
    await screen.findByTestId('batch-table');
    expect(screen.getAllByTestId('batch-row')).toHaveLength(1);
    paste('city\ttone\nGhent\twarm\nOslo\tdry\nLima\t\n');
    expect(screen.getAllByTestId('batch-row')).toHaveLength(3);
    expect((screen.getByTestId('batch-cell-1-city') as HTMLInputElement).value).toBe('Oslo');
    fireEvent.change(screen.getByTestId('batch-concurrency'), { target: { value: '2' } });
    fireEvent.click(screen.getByTestId('batch-run'));
    await screen.findByTestId('batch-results');
    expect(host.callsTo('runs.startBatch')).toEqual([{ path: PATH, rows: [{ city: 'Ghent', tone: 'warm' }, { city: 'Oslo', tone: 'dry' }, { city: 'Lima' }], concurrency: 2 }]);
    const statuses = () => screen.getAllByTestId('batch-result').map((r) => r.getAttribute('data-status'));
    expect(statuses()).toEqual(['queued', 'queued', 'queued']);

    current = batchOf(current!.rows.map((r) => r.inputs), ['completed', 'failed', 'running']);
    host.push({ kind: 'batch.changed', batchId: 'batch_1' });
    await waitFor(() => expect(statuses()).toEqual(['completed', 'failed', 'running']));
    expect(screen.getAllByTestId('batch-result')[0]!.textContent).toContain('city=Ghent · tone=warm');
    expect(screen.getAllByTestId('batch-result')[0]!.textContent).toContain('$0.0012');
    // Another batch's change is not this one's.
    current = batchOf(current.rows.map((r) => r.inputs), ['completed', 'failed', 'completed']);
    const fetches = host.callsTo('runs.batch').length;
    host.push({ kind: 'batch.changed', batchId: 'batch_other' });
    // A push reaches the store at once and a refresh asks the host before anything else (batchRunStore.ts),
    // with no fetch in flight now: no runs.batch call here means the statuses have nothing to change from.
    expect(host.callsTo('runs.batch')).toHaveLength(fetches);
    expect(statuses()).toEqual(['completed', 'failed', 'running']);

    current = batchOf(current.rows.map((r) => r.inputs), ['completed', 'failed', 'running']);
    fireEvent.click(screen.getByTestId('batch-stop'));
    await waitFor(() => expect(statuses()).toEqual(['completed', 'failed', 'cancelled']));
    expect(host.callsTo('runs.cancelBatch')).toEqual([{ batchId: 'batch_1' }]);
    expect(screen.getByTestId('batch-summary').textContent).toContain('stopped');
    expect(screen.queryByTestId('batch-stop')).toBeNull();
    // The Stop button that had the focus is gone (focus is on the body): Escape still closes the dialog.
    expect(document.activeElement).toBe(document.body);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(useBatchRunStore.getState().open).toBe(false);
  });

  it('a loaded .jsonl or .csv file fills the table by its own format; another file type is refused', async () => {
    render(<BatchRunDialog />);
    await screen.findByTestId('batch-table');
    const load = (name: string, text: string) => fireEvent.change(screen.getByTestId('batch-file'), { target: { files: [new File([text], name)] } });
    load('rows.jsonl', '{"city": "Ghent", "tone": "dry"}\n{"city": "Oslo"}\n');
    await waitFor(() => expect(screen.getAllByTestId('batch-row')).toHaveLength(2));
    expect((screen.getByTestId('batch-cell-0-tone') as HTMLInputElement).value).toBe('dry');
    // A tab in a .csv is part of a cell, not a separator: the file's name decides, not a guess.
    load('more.csv', 'city\nLima\tPeru\n');
    await waitFor(() => expect(screen.getAllByTestId('batch-row')).toHaveLength(3));
    expect((screen.getByTestId('batch-cell-2-city') as HTMLInputElement).value).toBe('Lima\tPeru');
    load('rows.txt', 'city\nLima\n');
    expect((await screen.findByTestId('batch-error')).textContent).toContain('rows.txt: the file must end in .csv');
    expect(screen.getAllByTestId('batch-row')).toHaveLength(3);
  });

  it('a row missing a required input is named by row and column, and nothing runs', async () => {
    render(<BatchRunDialog />);
    await screen.findByTestId('batch-table');
    paste('city,tone\nGhent,warm\n,dry\n');
    fireEvent.click(screen.getByTestId('batch-run'));
    const error = await screen.findByTestId('batch-error');
    expect(error.textContent).toContain('row 2, column "city"');
    expect(host.callsTo('runs.startBatch')).toEqual([]);
  });

  it('malformed pasted text is refused with its line, leaving the table as it was; the host refusing a row is shown with its problems', async () => {
    render(<BatchRunDialog />);
    await screen.findByTestId('batch-table');
    fireEvent.change(screen.getByTestId('batch-cell-0-city'), { target: { value: 'Ghent' } });
    paste('city,tone\n"Oslo,dry\n');
    expect((await screen.findByTestId('batch-error')).textContent).toContain('line 2');
    expect(screen.getAllByTestId('batch-row')).toHaveLength(1);
    expect((screen.getByTestId('batch-cell-0-city') as HTMLInputElement).value).toBe('Ghent');

    host.handlers['runs.startBatch'] = () => {
      throw new HostCallError('runs.startBatch', { code: 'bad_input', message: 'guide.crew.json is not a valid document', problems: [{ path: 'row 1', message: 'no value for the input "country"' }] });
    };
    fireEvent.click(screen.getByTestId('batch-run'));
    await waitFor(() => expect(screen.getByTestId('batch-error').textContent).toContain('no value for the input "country"'));
    expect(screen.queryByTestId('batch-results')).toBeNull();
  });
});

describe('the Run dialog', () => {
  it('offers "Run for each row…" for a crew, which opens the batch dialog in its place', async () => {
    useBatchRunStore.setState({ open: false });
    useUiStore.setState({ runDialogOpen: true });
    render(
      <>
        <RunInputsDialog />
        <BatchRunDialog />
      </>,
    );
    fireEvent.click(await screen.findByTestId('run-for-each-row'));
    expect(useUiStore.getState().runDialogOpen).toBe(false);
    expect(await screen.findByTestId('batch-table')).toBeTruthy();
    expect(screen.queryByTestId('run-dialog')).toBeNull();
  });
});
