import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { InlineModelSchema } from '../../shared/model/modelRef';
import { problemsFromZod } from '../../shared/model/problems';
import { WorkspaceSettingsFile } from '../../runtime/host/workspaceSettingsFile';
import { createHostService } from '../../runtime/host/createHostService';
import type { HostService } from '../../runtime/host/hostService';
import { examplesDir } from '../cli/cliHarness';

/** Where models, embedders and MCP servers are reached must be http(s): `settings.save` refuses the rest. */

let workspace: string;
let host: HostService;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'crewdeck-settings-url-'));
  cpSync(examplesDir, workspace, { recursive: true });
  writeFileSync(join(workspace, 'crewdeck.json'), `${JSON.stringify({ version: 1, models: { profiles: {} } }, null, 2)}\n`);
  host = createHostService({ workspace, transport: 'websocket', env: {} });
});
afterEach(async () => {
  await host.close();
  rmSync(workspace, { recursive: true, force: true });
});

async function save(settings: unknown): Promise<{ path: string; message: string }[]> {
  const result = await host.handle('settings.save', { settings });
  if (!result.ok) throw new Error(`settings.save: ${result.error.message}`);
  return (result.response as { problems: { path: string; message: string }[] }).problems;
}

const profile = (baseUrl: string) => ({ version: 1, models: { profiles: { p: { provider: 'openai', model: 'm', baseUrl } } } });
const embedder = (baseUrl: string) => ({ version: 1, memory: { embedder: { provider: 'openai', model: 'e', baseUrl } } });
const mcp = (url: string) => ({ version: 1, mcp: { servers: { docs: { transport: 'http', url } } } });

it('settings.save refuses a non-http(s) model, embedder or MCP URL, naming the field, and leaves the file alone', async () => {
  const before = readFileSync(join(workspace, 'crewdeck.json'), 'utf8');
  const message = 'must be an http:// or https:// URL';
  for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'ftp://example.com/v1', 'data:text/plain,hi']) {
    expect(await save(profile(url)), url).toEqual([{ path: 'models.profiles.p.baseUrl', message }]);
    expect(await save(embedder(url)), url).toEqual([{ path: 'memory.embedder.baseUrl', message }]);
    expect(await save(mcp(url)), url).toEqual([{ path: 'mcp.servers.docs.url', message }]);
  }
  expect(readFileSync(join(workspace, 'crewdeck.json'), 'utf8')).toBe(before);

  expect(await save(profile('http://127.0.0.1:11434/v1'))).toEqual([]);
  expect(await save(embedder('HTTPS://api.example.com/v1'))).toEqual([]);
  expect(await save(mcp('https://mcp.example.com/mcp'))).toEqual([]);
});

it('the same rule holds for a crewdeck.json written by hand and for a model inline in a crew', () => {
  writeFileSync(join(workspace, 'crewdeck.json'), JSON.stringify(profile('file:///etc/passwd')));
  const read = new WorkspaceSettingsFile(workspace).read();
  expect(read.problems).toEqual([expect.objectContaining({ path: 'models.profiles.p.baseUrl', message: expect.stringContaining('must be an http:// or https:// URL') })]);
  const inline = InlineModelSchema.safeParse({ provider: 'openai', model: 'm', baseUrl: 'file:///etc/passwd' });
  expect(inline.success).toBe(false);
  if (!inline.success) expect(problemsFromZod(inline.error)).toEqual([{ path: 'baseUrl', message: 'must be an http:// or https:// URL' }]);
});
