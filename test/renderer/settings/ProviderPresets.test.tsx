// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceSettings } from '../../../shared/model/workspace';
import { PROVIDER_PRESETS, presetForBaseUrl } from '../../../shared/model/providerPresets';
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
    models: { default: 'main', profiles: { main: { provider: 'openai', model: 'gpt-4.1-mini', temperature: 0.3 } } },
    memory: { embedder: { provider: 'hashing' } },
    mcp: { servers: { fs: { transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } } },
  };
  host = new FakeHost({
    'settings.get': () => ({ settings: saved, problems: [], keys: [] }),
    'secrets.list': () => ({ writable: false, names: [] }),
    'settings.save': ({ settings }) => {
      saved = settings as WorkspaceSettings;
      return { problems: [] };
    },
    'settings.testConnection': () => ({ ok: true, latencyMs: 5, models: ['llama3.1'] }),
  });
  setHost(host);
});
afterEach(cleanup);

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement | HTMLSelectElement;

describe('provider presets', () => {
  it('shows the preset a profile matches, and picking one fills base URL, key variable and tool calling', async () => {
    render(<SettingsPanel />);
    await screen.findAllByTestId('profile-item');
    expect(input('Preset').value).toBe('openai');
    expect([...(input('Preset') as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      'OpenAI',
      'Ollama',
      'LM Studio',
      'vLLM',
      'OpenRouter',
      'Groq',
      'Anthropic',
      'Google Gemini',
      'Azure OpenAI',
      'NVIDIA NIM',
      'Mistral',
      'DeepSeek',
      'xAI',
      'Together AI',
      'Fireworks AI',
      'Cerebras',
      'Hugging Face',
      'Any OpenAI-compatible URL',
    ]);

    fireEvent.change(input('Preset'), { target: { value: 'ollama' } });
    expect(input('Base URL').value).toBe('http://localhost:11434/v1');
    expect(input('API key variable').value).toBe('');
    expect(input('Tool calling').value).toBe('true');
    // The example model of the preset replaces another preset's example…
    expect(input('Model').value).toBe('llama3.1');
    expect(screen.getByTestId('profile-preset-help').textContent).toContain('Local Ollama server');

    fireEvent.change(input('Model'), { target: { value: 'qwen2.5:14b' } });
    fireEvent.change(input('Preset'), { target: { value: 'lmstudio' } });
    // …but a model the user typed is kept.
    expect(input('Model').value).toBe('qwen2.5:14b');
    expect(input('Base URL').value).toBe('http://localhost:1234/v1');
    expect(input('Tool calling').value).toBe('false');

    fireEvent.change(input('Preset'), { target: { value: 'openrouter' } });
    expect(input('API key variable').value).toBe('OPENROUTER_API_KEY');
    fireEvent.change(input('Max tokens'), { target: { value: '2048' } });

    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(host.callsTo('settings.save')).toHaveLength(1));
    expect(saved.models.profiles.main).toEqual({
      provider: 'openai',
      model: 'qwen2.5:14b',
      baseUrl: 'https://openrouter.ai/api/v1',
      apiKeyEnv: 'OPENROUTER_API_KEY',
      temperature: 0.3,
      maxTokens: 2048,
      nativeTools: true,
    });
    // The form edits profiles only; the file's other sections survive a save.
    expect(saved.mcp?.servers.fs).toMatchObject({ transport: 'stdio', command: 'npx' });
    expect(saved.memory).toEqual({ embedder: { provider: 'hashing' } });
  });

  it('an unknown URL shows as "Any OpenAI-compatible URL", and the custom preset leaves tool calling automatic', async () => {
    saved.models.profiles.main = { provider: 'openai', model: 'm', baseUrl: 'http://gpu-box:9000/v1', nativeTools: false };
    render(<SettingsPanel />);
    await screen.findAllByTestId('profile-item');
    expect(input('Preset').value).toBe('custom');
    fireEvent.change(input('Preset'), { target: { value: 'custom' } });
    expect(input('Tool calling').value).toBe('');
    expect(input('Model').value).toBe('m');
    expect(input('Base URL').value).toBe('http://gpu-box:9000/v1');
  });

  it('every preset has a distinct base URL that maps back to it', () => {
    for (const preset of PROVIDER_PRESETS) expect(presetForBaseUrl(preset.baseUrl).id).toBe(preset.id === 'custom' ? 'custom' : preset.id);
    expect(presetForBaseUrl(undefined).id).toBe('openai');
    expect(presetForBaseUrl('http://localhost:11434/v1/').id).toBe('ollama');
  });
});
