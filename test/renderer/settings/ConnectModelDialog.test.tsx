// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import type { HostResponse, TrustStatus } from '../../../shared/host-api';
import type { WorkspaceSettings } from '../../../shared/model/workspace';
import { setHost } from '../../../renderer/host/hostContext';
import { ConnectModelDialog } from '../../../renderer/panels/connect/ConnectModelDialog';
import { useConnectModelStore } from '../../../renderer/panels/connect/connectModelStore';
import { useSettingsStore } from '../../../renderer/stores/settingsStore';
import { useTrustStore } from '../../../renderer/stores/trustStore';
import { FakeHost } from '../run/fakeHost';

afterEach(() => {
  cleanup();
  useConnectModelStore.setState({ open: false, choice: 'local', servers: undefined, probing: false, stage: 'idle', error: undefined, profile: undefined, models: [], entered: [] });
  useTrustStore.setState({ status: undefined, codeAsked: undefined, error: undefined, busy: false });
  useSettingsStore.setState({ loaded: false, settings: undefined, entered: [], checks: {} });
});

const NO_TRUST: TrustStatus = { needed: false, trusted: true, parts: [] };

/** A host with a settings file in memory; `held(settings)` says which saved profiles still need trust. */
function fakeHost(options: { held?: (s: WorkspaceSettings) => TrustStatus; models?: string[]; servers?: HostResponse<'models.probeLocal'>['servers'] } = {}) {
  let settings: WorkspaceSettings = { version: 1, models: { profiles: {} } };
  const trusted = { value: false };
  const status = () => (trusted.value ? NO_TRUST : (options.held?.(settings) ?? NO_TRUST));
  const host = new FakeHost({
    'settings.get': () => ({ settings, problems: [], keys: [] }),
    'secrets.list': () => ({ writable: false, names: [] }),
    'settings.save': (req) => {
      settings = req.settings as WorkspaceSettings;
      const urls = Object.values(settings.models.profiles).flatMap((p) => (p.baseUrl?.startsWith('http://127.0.0.1') ? [p.baseUrl] : []));
      return urls.length ? { problems: [], entered: urls } : { problems: [] };
    },
    'trust.status': () => status(),
    'trust.grant': (req) => {
      if (req.code === '123456') trusted.value = true;
      return req.code === undefined ? { ...status(), confirmation: { codeRequired: true, message: 'Enter the code printed in the terminal' } } : status();
    },
    'settings.testConnection': () => ({ ok: true, latencyMs: 3, models: options.models ?? [], method: 'models' }),
    'models.probeLocal': () => ({ servers: options.servers ?? [] }),
  });
  setHost(host);
  return { host, settings: () => settings };
}

it('connects any OpenAI-compatible URL: saves the profile as the default, tests it, offers the listed models', async () => {
  const { host, settings } = fakeHost({ models: ['alpha', 'beta'] });
  render(<ConnectModelDialog />);
  useConnectModelStore.getState().setOpen(true);
  fireEvent.click(await screen.findByTestId('connect-choice-url'));
  fireEvent.change(screen.getByTestId('connect-base-url'), { target: { value: 'http://127.0.0.1:4999/v1' } });
  fireEvent.click(screen.getByTestId('connect-url-go'));

  const pick = await screen.findByTestId('connect-model-pick');
  expect(settings().models).toEqual({ default: 'local', profiles: { local: { provider: 'openai', model: 'default', baseUrl: 'http://127.0.0.1:4999/v1' } } });
  fireEvent.change(pick, { target: { value: 'beta' } });
  fireEvent.click(screen.getByTestId('connect-use-model'));

  const done = await screen.findByTestId('connect-done');
  expect(done.textContent).toContain('is now the default');
  expect(done.textContent).toContain('no trust step');
  expect(settings().models.profiles.local?.model).toBe('beta');
  expect(host.callsTo('trust.grant')).toEqual([]);
  // The panel looked for local servers when it opened, and only then.
  expect(host.callsTo('models.probeLocal')).toHaveLength(1);
});

it('a remote URL waits for the Trust… flow (the terminal’s code), then is tested', async () => {
  const held = (s: WorkspaceSettings): TrustStatus =>
    s.models.profiles.models
      ? { needed: true, trusted: false, parts: [{ kind: 'network', where: 'crewdeck.json models.profiles.models.baseUrl', summary: 'sends prompts to models.example.com', trusted: false }] }
      : NO_TRUST;
  const { host } = fakeHost({ held });
  render(<ConnectModelDialog />);
  useConnectModelStore.getState().setOpen(true);
  fireEvent.click(await screen.findByTestId('connect-choice-url'));
  fireEvent.change(screen.getByTestId('connect-base-url'), { target: { value: 'https://models.example.com/v1' } });
  fireEvent.change(screen.getByTestId('connect-url-model'), { target: { value: 'big' } });
  fireEvent.click(screen.getByTestId('connect-url-go'));

  const trust = await screen.findByTestId('connect-trust');
  expect(trust.textContent).toContain('sends prompts to models.example.com');
  expect(host.callsTo('settings.testConnection')).toEqual([]);
  fireEvent.click(screen.getByTestId('trust-grant'));
  fireEvent.change(await screen.findByTestId('trust-code'), { target: { value: '123456' } });
  fireEvent.click(screen.getByTestId('trust-confirm'));
  await screen.findByTestId('connect-done');
  expect(host.callsTo('settings.testConnection')).toEqual([{ model: 'models' }]);
});

it('lists the local servers that answered, and connects one with its model', async () => {
  const { settings } = fakeHost({
    models: ['llama3.1'],
    servers: [
      { id: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', found: true, models: ['llama3.1', 'qwen2.5'] },
      { id: 'lmstudio', label: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1', found: false, models: [] },
      { id: 'vllm', label: 'vLLM', baseUrl: 'http://127.0.0.1:8000/v1', found: false, models: [] },
    ],
  });
  render(<ConnectModelDialog />);
  useConnectModelStore.getState().setOpen(true);
  const rows = await screen.findAllByTestId('connect-server');
  expect(rows.map((r) => r.getAttribute('data-server'))).toEqual(['ollama']);
  fireEvent.click(screen.getByTestId('connect-local-go'));
  await screen.findByTestId('connect-done');
  expect(settings().models.default).toBe('ollama');
  expect(settings().models.profiles.ollama).toEqual({ provider: 'openai', model: 'llama3.1', baseUrl: 'http://127.0.0.1:11434/v1', nativeTools: true });
});

it('says when no local server answers', async () => {
  fakeHost({ servers: [{ id: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', found: false, models: [] }] });
  render(<ConnectModelDialog />);
  useConnectModelStore.getState().setOpen(true);
  await waitFor(() => expect(screen.getByTestId('connect-none-found').textContent).toContain('None is running'));
});
