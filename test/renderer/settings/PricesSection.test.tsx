// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceSettings } from '../../../shared/model/workspace';
import { DEFAULT_PRICES_DATE } from '../../../shared/model/prices';
import { setHost } from '../../../renderer/host/hostContext';
import { SettingsPanel } from '../../../renderer/panels/SettingsPanel';
import { useSettingsStore } from '../../../renderer/stores/settingsStore';
import { FakeHost } from '../run/fakeHost';

let saved: WorkspaceSettings;

beforeEach(() => {
  useSettingsStore.setState({ loaded: false, settings: undefined, saveProblems: [], checks: {}, savedAt: undefined, saveError: undefined });
  saved = { version: 1, models: { profiles: { local: { provider: 'openai', model: 'llama3.1', baseUrl: 'http://127.0.0.1:11434/v1' } } }, prices: { 'gpt-4o': { inputPerMTok: 2, outputPerMTok: 8 } } };
  setHost(
    new FakeHost({
      'settings.get': () => ({ settings: saved, problems: [], keys: [] }),
      'secrets.list': () => ({ writable: false, names: [] }),
      'settings.save': ({ settings }) => {
        saved = settings as WorkspaceSettings;
        return { problems: [] };
      },
    }),
  );
});
afterEach(cleanup);

describe('Settings → Model prices', () => {
  it('edits crewdeck.json prices and keeps the model profiles', async () => {
    render(<SettingsPanel />);
    const section = await screen.findByTestId('settings-prices');
    expect(section.textContent).toContain(DEFAULT_PRICES_DATE);
    await waitFor(() => expect(within(section).getAllByTestId('price-row')).toHaveLength(1));
    fireEvent.click(within(section).getByTestId('price-add'));
    const row = within(section).getAllByTestId('price-row')[1];
    fireEvent.change(within(row!).getByLabelText('Model name'), { target: { value: 'llama3.1' } });
    fireEvent.change(within(row!).getByLabelText('Input $/M tokens'), { target: { value: '0.1' } });
    fireEvent.change(within(row!).getByLabelText('Output $/M tokens'), { target: { value: 'lots' } });
    fireEvent.click(within(section).getByTestId('prices-save'));
    expect(section.textContent).toContain('llama3.1: output price must be a number ≥ 0, got "lots"');
    fireEvent.change(within(row!).getByLabelText('Output $/M tokens'), { target: { value: '1e308' } });
    fireEvent.click(within(section).getByTestId('prices-save'));
    expect(section.textContent).toContain('llama3.1: output price must be at most 1,000,000 (US dollars per million tokens), got "1e308"');
    fireEvent.change(within(row!).getByLabelText('Output $/M tokens'), { target: { value: '0.4' } });
    fireEvent.click(within(section).getByTestId('prices-save'));
    await waitFor(() => expect(saved.prices).toEqual({ 'gpt-4o': { inputPerMTok: 2, outputPerMTok: 8 }, 'llama3.1': { inputPerMTok: 0.1, outputPerMTok: 0.4 } }));
    expect(Object.keys(saved.models.profiles)).toEqual(['local']);
  });
});
