// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImportCrewAiDialog } from '../../../renderer/dialogs/importCrewAi/ImportCrewAiDialog';
import { useImportCrewAiStore } from '../../../renderer/dialogs/importCrewAi/importCrewAiStore';
import { setHost } from '../../../renderer/host/hostContext';
import { HostCallError } from '../../../renderer/host/hostError';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { FakeHost } from '../run/fakeHost';

let host: FakeHost;
beforeEach(() => {
  useImportCrewAiStore.setState({ open: true });
  useDocumentStore.getState().close();
});
afterEach(() => {
  cleanup();
  useImportCrewAiStore.setState({ open: false });
});

describe('File → Import CrewAI Project… dialog', () => {
  it('imports the folder typed in, opens the new crew and lists what was not imported with reasons', async () => {
    host = new FakeHost({
      'documents.importCrewai': () => ({
        path: 'market_research.crew.json',
        documents: [{ path: 'market_research.crew.json', kind: 'crew' }],
        sourceFiles: ['src/market_research/crew.py', 'src/market_research/config/agents.yaml'],
        unmapped: [
          { path: 'src/market_research/crew.py:35', item: 'researcher.tools: MarketSizeTool()', why: 'custom Python tool (src/market_research/tools/custom_tool.py)' },
          { path: 'src/market_research/crew.py:56', item: 'reporting_task.callback=log_report', why: 'a Python callback cannot run in Crewdeck' },
        ],
      }),
    });
    setHost(host);
    render(<ImportCrewAiDialog />);
    const submit = screen.getByTestId('import-crewai-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Project folder'), { target: { value: ' /home/me/market_research ' } });
    fireEvent.click(submit);

    const list = await screen.findByTestId('import-crewai-unmapped');
    expect(host.callsTo('documents.importCrewai')).toEqual([{ dir: '/home/me/market_research' }]);
    expect(within(list).getByText('Not imported (2)')).toBeTruthy();
    const items = within(list).getAllByTestId('import-crewai-unmapped-item');
    expect(items[0]!.textContent).toContain('researcher.tools: MarketSizeTool()');
    expect(items[0]!.textContent).toContain('custom Python tool');
    expect(useDocumentStore.getState().path).toBe('market_research.crew.json');

    fireEvent.click(screen.getByTestId('import-crewai-done'));
    expect(useImportCrewAiStore.getState().open).toBe(false);
  });

  it('shows the host error (no project found) and stays open', async () => {
    host = new FakeHost({
      'documents.importCrewai': () => {
        throw new HostCallError('documents.importCrewai', { code: 'bad_input', message: 'No CrewAI project in /tmp/x: no config/agents.yaml' });
      },
    });
    setHost(host);
    render(<ImportCrewAiDialog />);
    fireEvent.change(screen.getByTestId('import-crewai-dir'), { target: { value: '/tmp/x' } });
    fireEvent.click(screen.getByTestId('import-crewai-submit'));
    await waitFor(() => expect(screen.getByTestId('import-crewai-error').textContent).toMatch(/No CrewAI project/));
    expect(useImportCrewAiStore.getState().open).toBe(true);
    expect(useDocumentStore.getState().path).toBeUndefined();
  });
});
