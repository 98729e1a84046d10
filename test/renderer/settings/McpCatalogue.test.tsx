// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpServerSchema } from '../../../shared/model/mcpSettings';
import { WorkspaceSettingsSchema, type WorkspaceSettings } from '../../../shared/model/workspace';
import { mcpHeldPart } from '../../../runtime/trust/heldParts';
import { setHost } from '../../../renderer/host/hostContext';
import { SettingsPanel } from '../../../renderer/panels/SettingsPanel';
import { MCP_CATALOGUE } from '../../../renderer/panels/settings/mcpCatalogue';
import { useSettingsStore } from '../../../renderer/stores/settingsStore';
import { useTrustStore } from '../../../renderer/stores/trustStore';
import { useWorkspaceStore } from '../../../renderer/stores/workspaceStore';
import { FakeHost } from '../run/fakeHost';

const WORKSPACE = '/home/ada/bakery';
let host: FakeHost;
let saved: WorkspaceSettings;
let trusted: Set<string>;

/** The trust status the host would give: the runtime's own held part of each MCP server in the saved settings. */
function trustStatus() {
  const parts = Object.entries(saved.mcp?.servers ?? {}).flatMap(([name, server]) => {
    const part = mcpHeldPart(name, server);
    return part ? [{ kind: part.kind, where: part.where, summary: part.summary, trusted: trusted.has(part.digest) }] : [];
  });
  return { needed: parts.length > 0, trusted: parts.every((p) => p.trusted), parts };
}

beforeEach(() => {
  useSettingsStore.setState({ loaded: false, settings: undefined, saveProblems: [], checks: {}, savedAt: undefined, saveError: undefined, entered: [] });
  useTrustStore.setState({ status: undefined, busy: false, error: undefined, codeAsked: undefined });
  useWorkspaceStore.setState({ info: undefined });
  trusted = new Set();
  saved = { version: 1, models: { default: 'local', profiles: { local: { provider: 'openai', model: 'llama3.1', baseUrl: 'http://127.0.0.1:11434/v1' } } } };
  host = new FakeHost({
    'settings.get': () => ({ settings: saved, problems: [], keys: [] }),
    'secrets.list': () => ({ writable: false, names: [] }),
    'settings.save': ({ settings }) => {
      // What the host checks before writing crewdeck.json.
      const parsed = WorkspaceSettingsSchema.safeParse(settings);
      if (!parsed.success) return { problems: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) };
      saved = settings as WorkspaceSettings;
      return { problems: [] };
    },
    'workspace.info': () => ({ path: WORKSPACE, name: 'bakery', transport: 'websocket', version: '0.0.0' }),
    'trust.status': () => trustStatus(),
  });
  setHost(host);
});
afterEach(cleanup);

describe('Settings → MCP servers catalogue', () => {
  it('adds the filesystem server as a stdio server rooted at the workspace, held until trusted, and keeps the model profiles', async () => {
    render(<SettingsPanel />);
    const section = await screen.findByTestId('settings-mcp');
    const entry = within(section).getAllByTestId('mcp-entry').find((e) => e.dataset.entry === 'filesystem')!;
    expect(entry.textContent).toContain('@modelcontextprotocol/server-filesystem@');
    await waitFor(() => expect((within(entry).getByTestId('mcp-entry-add') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(within(entry).getByTestId('mcp-entry-add'));

    await waitFor(() => expect(saved.mcp?.servers.filesystem).toBeDefined());
    const pkg = MCP_CATALOGUE.find((e) => e.name === 'filesystem')!.npm;
    expect(saved.mcp!.servers.filesystem).toEqual({ transport: 'stdio', command: 'npx', args: ['-y', `${pkg.package}@${pkg.version}`, '.'] });
    expect(saved.models.profiles.local!.model).toBe('llama3.1');

    // Held like any other stdio server: listed under "Not trusted yet" with its command line, marked on its row.
    const held = await screen.findByTestId('settings-trust-held');
    expect(held.textContent).toContain(`crewdeck.json mcp.servers.filesystem: runs: npx -y ${pkg.package}@${pkg.version} .`);
    const row = await within(section).findByTestId('mcp-server');
    expect(row.dataset.server).toBe('filesystem');
    expect(within(row).getByTestId('mcp-server-trust').textContent).toBe('held until trusted');
    expect(within(section).getByTestId('mcp-added').textContent).toContain('does not start until you trust this workspace');
    expect((within(entry).getByTestId('mcp-entry-add') as HTMLButtonElement).disabled).toBe(true);
    expect(within(entry).getByTestId('mcp-entry-add').textContent).toBe('Added');

    // Saving the model profiles afterwards keeps the server.
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'qwen2.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(saved.models.profiles.local!.model).toBe('qwen2.5'));
    expect(Object.keys(saved.mcp!.servers)).toEqual(['filesystem']);
  });

  it('keeps the memory file in the workspace’s .crewdeck folder, names a second copy apart, and removes a server', async () => {
    saved = { ...saved, mcp: { servers: { memory: { transport: 'http', url: 'https://mcp.example.com/memory' } } } };
    render(<SettingsPanel />);
    const section = await screen.findByTestId('settings-mcp');
    const entry = within(section).getAllByTestId('mcp-entry').find((e) => e.dataset.entry === 'memory')!;
    await waitFor(() => expect((within(entry).getByTestId('mcp-entry-add') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(within(entry).getByTestId('mcp-entry-add'));
    await waitFor(() => expect(saved.mcp?.servers['memory-2']).toBeDefined());
    expect(saved.mcp!.servers['memory-2']).toMatchObject({ transport: 'stdio', command: 'npx', env: { MEMORY_FILE_PATH: `${WORKSPACE}/.crewdeck/mcp-memory.jsonl` } });
    expect(saved.mcp!.servers.memory).toEqual({ transport: 'http', url: 'https://mcp.example.com/memory' });

    fireEvent.click(within(section).getByRole('button', { name: 'Remove memory' }));
    await waitFor(() => expect(Object.keys(saved.mcp!.servers)).toEqual(['memory-2']));
  });

  it('every catalogue entry is a valid stdio server the runtime holds as a command', () => {
    for (const entry of MCP_CATALOGUE) {
      const server = McpServerSchema.parse(entry.server(WORKSPACE));
      expect(server.transport, entry.name).toBe('stdio');
      const part = mcpHeldPart(entry.name, server);
      expect(part?.kind, entry.name).toBe('command');
      expect(part?.summary, entry.name).toContain(`${entry.npm.package}@${entry.npm.version}`);
    }
  });
});
