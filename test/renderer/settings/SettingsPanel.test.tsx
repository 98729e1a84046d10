// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceSettings } from '../../../shared/model/workspace';
import { setHost } from '../../../renderer/host/hostContext';
import { SettingsPanel } from '../../../renderer/panels/SettingsPanel';
import { useSettingsStore } from '../../../renderer/stores/settingsStore';
import { FakeHost } from '../run/fakeHost';

let host: FakeHost;
let saved: WorkspaceSettings;

beforeEach(() => {
  useSettingsStore.setState({ loaded: false, settings: undefined, saveProblems: [], checks: {}, savedAt: undefined, saveError: undefined });
  saved = {
    version: 1,
    models: {
      default: 'local',
      profiles: {
        local: { provider: 'openai', model: 'llama3.1', baseUrl: 'http://127.0.0.1:11434/v1', apiKeyEnv: 'OLLAMA_KEY' },
        demo: { provider: 'scripted', model: 'demo', script: 'scripts/demo.json' },
      },
    },
  };
  host = new FakeHost({
    'settings.get': () => ({ settings: saved, problems: [], keys: [{ name: 'OLLAMA_KEY', present: false }, { name: 'OPENAI_API_KEY', present: true }] }),
    'secrets.list': () => ({ writable: false, names: [{ name: 'OLLAMA_KEY', present: false, stored: false }, { name: 'OPENAI_API_KEY', present: true, stored: false }] }),
    'settings.save': ({ settings }) => {
      saved = settings as WorkspaceSettings;
      return { problems: [] };
    },
    'settings.testConnection': () => ({ ok: true, latencyMs: 42, models: ['llama3.1', 'qwen2.5'] }),
  });
  setHost(host);
});
afterEach(cleanup);

describe('SettingsPanel', () => {
  it('lists the profiles with the default marked and edits the selected one', async () => {
    render(<SettingsPanel />);
    const items = await screen.findAllByTestId('profile-item');
    expect(items.map((i) => i.dataset.profile)).toEqual(['local', 'demo']);
    expect(items[0]!.textContent).toContain('default');
    expect((screen.getByLabelText('Base URL') as HTMLInputElement).value).toBe('http://127.0.0.1:11434/v1');
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'qwen2.5' } });
    fireEvent.change(screen.getByLabelText('Temperature'), { target: { value: '0.2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(host.callsTo('settings.save')).toHaveLength(1));
    expect(saved.models.profiles.local).toEqual({ provider: 'openai', model: 'qwen2.5', baseUrl: 'http://127.0.0.1:11434/v1', apiKeyEnv: 'OLLAMA_KEY', temperature: 0.2 });
    expect(saved.models.default).toBe('local');
    expect(saved.models.profiles.demo).toEqual({ provider: 'scripted', model: 'demo', script: 'scripts/demo.json' });
  });

  it('adds and deletes profiles and changes the default', async () => {
    render(<SettingsPanel />);
    await screen.findAllByTestId('profile-item');
    fireEvent.click(screen.getByRole('button', { name: '+ Add profile' }));
    fireEvent.change(screen.getByLabelText('Profile name'), { target: { value: 'cloud' } });
    fireEvent.click(screen.getByRole('button', { name: 'Make default' }));
    fireEvent.click(screen.getAllByTestId('profile-item')[1]!);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(host.callsTo('settings.save')).toHaveLength(1));
    expect(Object.keys(saved.models.profiles)).toEqual(['local', 'cloud']);
    expect(saved.models.profiles.cloud).toEqual({ provider: 'openai', model: 'gpt-4.1-mini' });
    expect(saved.models.default).toBe('cloud');
  });

  it('shows the problems the host returns under their fields', async () => {
    host.handlers['settings.save'] = () => ({ problems: [{ path: 'models.profiles.local.baseUrl', message: 'Invalid URL' }] });
    render(<SettingsPanel />);
    await screen.findAllByTestId('profile-item');
    fireEvent.change(screen.getByLabelText('Base URL'), { target: { value: 'not a url' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    const problem = await screen.findByRole('alert');
    expect(problem.textContent).toBe('Invalid URL');
    expect(problem.closest('.settings-field')?.querySelector('label')?.textContent).toBe('Base URL');
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
  });

  it('does not save settings the scripted provider hides', async () => {
    render(<SettingsPanel />);
    await screen.findAllByTestId('profile-item');
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: 'scripted' } });
    fireEvent.change(screen.getByLabelText('Script file'), { target: { value: 'scripts/local.json' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(host.callsTo('settings.save')).toHaveLength(1));
    expect(saved.models.profiles.local).toEqual({ provider: 'scripted', model: 'llama3.1', script: 'scripts/local.json' });
  });

  it('catches values that are not numbers before sending anything', async () => {
    render(<SettingsPanel />);
    await screen.findAllByTestId('profile-item');
    fireEvent.change(screen.getByLabelText('Max tokens'), { target: { value: '12.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect((await screen.findByRole('alert')).textContent).toBe('must be a whole number');
    expect(host.callsTo('settings.save')).toEqual([]);
  });

  it('tests the connection of the profile as edited and shows latency and models', async () => {
    render(<SettingsPanel />);
    await screen.findAllByTestId('profile-item');
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'qwen2.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const result = await screen.findByTestId('connection-result');
    await waitFor(() => expect(result.dataset.state).toBe('ok'));
    expect(result.textContent).toContain('42 ms');
    expect(result.textContent).toContain('2 models');
    expect(host.callsTo('settings.testConnection')).toEqual([{ model: { provider: 'openai', model: 'qwen2.5', baseUrl: 'http://127.0.0.1:11434/v1', apiKeyEnv: 'OLLAMA_KEY' } }]);
  });

  it('shows a failed connection', async () => {
    host.handlers['settings.testConnection'] = () => ({ ok: false, latencyMs: 3, models: [], error: 'connect ECONNREFUSED 127.0.0.1:11434' });
    render(<SettingsPanel />);
    await screen.findAllByTestId('profile-item');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(screen.getByTestId('connection-result').dataset.state).toBe('error'));
    expect(screen.getByTestId('connection-result').textContent).toContain('ECONNREFUSED');
  });

  it('explains that browser mode reads keys from the environment and shows which are set', async () => {
    render(<SettingsPanel />);
    expect((await screen.findByTestId('keys-readonly')).textContent).toContain('environment');
    const rows = screen.getAllByTestId('key-row');
    expect(rows.map((r) => [r.dataset.key, r.dataset.present])).toEqual([
      ['OLLAMA_KEY', 'false'],
      ['OPENAI_API_KEY', 'true'],
    ]);
    expect(within(rows[1]!).getByText('set in environment')).toBeTruthy();
    expect(screen.queryByLabelText(/New value for/)).toBeNull();
  });

  it('stores a key when the host can keep secrets', async () => {
    const stored = new Set<string>();
    host.handlers['secrets.list'] = () => ({ writable: true, names: ['OLLAMA_KEY', 'OPENAI_API_KEY'].map((name) => ({ name, present: stored.has(name), stored: stored.has(name) })) });
    host.handlers['secrets.set'] = ({ name }) => {
      stored.add(name);
      return {};
    };
    render(<SettingsPanel />);
    const input = await screen.findByLabelText('New value for OLLAMA_KEY');
    fireEvent.change(input, { target: { value: 'sk-local' } });
    fireEvent.click(within(input.closest('tr')!).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(input.closest('tr')!).getByText('stored')).toBeTruthy());
    expect(host.callsTo('secrets.set')).toEqual([{ name: 'OLLAMA_KEY', value: 'sk-local' }]);
  });
});
