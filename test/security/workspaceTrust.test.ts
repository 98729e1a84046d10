import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkspaceSettingsSchema } from '../../shared/model/workspace';
import { settingsHeldParts } from '../../runtime/trust/heldParts';
import { userConfigDir } from '../../runtime/trust/trustStore';
import { WorkspaceTrust } from '../../runtime/trust/workspaceTrust';
import { createHostService } from '../../runtime/host/createHostService';
import { TerminalCodeConfirmer } from '../../runtime/trust/trustConfirmation';
import { startScriptedServer } from '../support/scriptedServer';
import { describeResult, examplesDir, parseSingleJson, repoRoot, runCli, scriptedCrew, tempDir, type TempWorkspace } from '../cli/cliHarness';

const MARKER_SERVER = join(repoRoot, 'test/fixtures/mcp/markerServer.mjs');
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** A workspace whose crewdeck.json starts an MCP stdio server (which would create `marker`) and a crew that uses it. */
function mcpWorkspace(args: string[] = []): { ws: TempWorkspace; marker: string; crew: string; configDir: string } {
  const ws = tempDir('crewdeck-trust-');
  const configDir = mkdtempSync(join(tmpdir(), 'crewdeck-trust-config-'));
  cleanups.push(ws.remove, () => rmSync(configDir, { recursive: true, force: true }));
  const marker = ws.path('marker.txt');
  ws.write('crewdeck.json', { version: 1, mcp: { servers: { marker: { transport: 'stdio', command: process.execPath, args: [MARKER_SERVER, marker, ...args] } } } });
  const crew = ws.write(
    'echo.crew.json',
    scriptedCrew({
      agents: [
        {
          id: 'a',
          role: 'Echoer',
          goal: 'echo',
          llm: {
            provider: 'scripted',
            model: 'echo',
            script: {
              rules: [
                { when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'mcp:marker/echo', arguments: { text: 'hi' } }] } },
                { when: { lastRole: 'tool' }, reply: 'echoed' },
              ],
            },
          },
          tools: [{ tool: 'mcp:marker/echo' }],
        },
      ],
      tasks: [{ id: 't', description: 'Echo hi', expectedOutput: 'the echo', agentId: 'a' }],
    }),
  );
  return { ws, marker, crew, configDir };
}

describe('workspace trust (CLI)', () => {
  it('an untrusted MCP stdio server: run --json exits 2 naming crewdeck trust and the command never ran; after trust --yes it runs; new args need trust again', async () => {
    const { ws, marker, crew, configDir } = mcpWorkspace();
    const env = { CREWDECK_CONFIG_DIR: configDir };

    const refused = await runCli(['run', crew, '--json'], { env });
    expect(refused.code, describeResult(refused)).toBe(2);
    const body = parseSingleJson(refused);
    expect(body.status).toBe('invalid');
    expect(body.error).toMatch(/not trusted/);
    expect(body.error).toContain('crewdeck trust');
    expect(body.error).toContain('crewdeck.json mcp.servers.marker runs:');
    expect(existsSync(marker)).toBe(false);

    const trusted = await runCli(['trust', '--yes', '--workspace', ws.dir], { env });
    expect(trusted.code, describeResult(trusted)).toBe(0);
    // The summary shows the command line with its arguments before recording.
    expect(trusted.stdout).toContain(`crewdeck.json mcp.servers.marker: runs: ${process.execPath} ${MARKER_SERVER} ${marker}`);
    // Trust lives in the config folder, never in the workspace.
    expect(existsSync(join(configDir, 'trusted-workspaces.json'))).toBe(true);
    expect(readFileSync(join(configDir, 'trusted-workspaces.json'), 'utf8')).not.toContain('--');

    const ran = await runCli(['run', crew, '--json'], { env });
    expect(ran.code, describeResult(ran)).toBe(0);
    expect(parseSingleJson(ran).output).toBe('echoed');
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);

    // Changing the server's arguments is a new command: held again.
    const changed = JSON.parse(readFileSync(ws.path('crewdeck.json'), 'utf8'));
    changed.mcp.servers.marker.args.push('--extra');
    ws.write('crewdeck.json', changed);
    const again = await runCli(['run', crew, '--json'], { env });
    expect(again.code, describeResult(again)).toBe(2);
    expect(parseSingleJson(again).error).toContain('crewdeck trust');
    expect(existsSync(marker)).toBe(false);

    // Revoking forgets the workspace.
    await runCli(['trust', '--yes', '--workspace', ws.dir], { env });
    const revoked = await runCli(['trust', '--revoke', '--workspace', ws.dir], { env });
    expect(revoked.code).toBe(0);
    const afterRevoke = await runCli(['run', crew, '--json'], { env });
    expect(afterRevoke.code).toBe(2);
    expect(existsSync(marker)).toBe(false);
  }, 60_000);

  it('without --yes and without a terminal, trust refuses to record anything (exit 2)', async () => {
    const { ws, configDir } = mcpWorkspace();
    const r = await runCli(['trust', '--workspace', ws.dir], { env: { CREWDECK_CONFIG_DIR: configDir } });
    expect(r.code, describeResult(r)).toBe(2);
    expect(existsSync(join(configDir, 'trusted-workspaces.json'))).toBe(false);
  });

  it('the examples need no trust', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'crewdeck-trust-config-'));
    cleanups.push(() => rmSync(configDir, { recursive: true, force: true }));
    const r = await runCli(['trust', '--json', '--workspace', examplesDir], { env: { CREWDECK_CONFIG_DIR: configDir } });
    expect(r.code, describeResult(r)).toBe(0);
    expect(parseSingleJson(r)).toEqual({ needed: false, trusted: true, parts: [] });
  });
});

describe('held parts', () => {
  it('holds stdio servers, ${VAR}s sent to an MCP server, and apiKeyEnv with a baseUrl of its own; nothing else', () => {
    const settings = WorkspaceSettingsSchema.parse({
      version: 1,
      models: {
        profiles: {
          local: { provider: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:11434/v1' },
          cloud: { provider: 'openai', model: 'm', apiKeyEnv: 'OPENAI_API_KEY' },
          proxy: { provider: 'openai', model: 'm', baseUrl: 'https://proxy.example.com/v1', apiKeyEnv: 'OPENAI_API_KEY' },
        },
      },
      memory: { embedder: { provider: 'openai', model: 'e', baseUrl: 'https://embed.example.com/v1', apiKeyEnv: 'EMBED_KEY' } },
      mcp: {
        servers: {
          plain: { transport: 'http', url: 'https://mcp.example.com/mcp' },
          tokened: { transport: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${MCP_TOKEN}' } },
          local: { transport: 'stdio', command: 'npx', args: ['-y', 'some server'], env: { TOKEN: '${GH_TOKEN}' } },
        },
      },
    });
    expect(settingsHeldParts(settings).map((p) => `${p.where}: ${p.summary}`)).toEqual([
      'crewdeck.json mcp.servers.tokened: sends $MCP_TOKEN to mcp.example.com',
      "crewdeck.json mcp.servers.local: runs: npx -y 'some server' with environment TOKEN (passes $GH_TOKEN from your environment)",
      'crewdeck.json models.profiles.proxy: sends $OPENAI_API_KEY to proxy.example.com',
      'crewdeck.json memory.embedder: sends $EMBED_KEY to embed.example.com',
    ]);
  });

  it('records trust keyed by the real workspace path, in CREWDECK_CONFIG_DIR', () => {
    const ws = tempDir('crewdeck-trust-');
    const configDir = mkdtempSync(join(tmpdir(), 'crewdeck-trust-config-'));
    cleanups.push(ws.remove, () => rmSync(configDir, { recursive: true, force: true }));
    const env = { CREWDECK_CONFIG_DIR: configDir };
    expect(userConfigDir(env)).toBe(configDir);
    expect(userConfigDir({ XDG_CONFIG_HOME: '/x/config' })).toBe('/x/config/crewdeck');
    expect(userConfigDir({ HOME: '/home/u' })).toBe('/home/u/.config/crewdeck');
    const settings = WorkspaceSettingsSchema.parse({ version: 1, mcp: { servers: { s: { transport: 'stdio', command: 'server' } } } });
    const trust = new WorkspaceTrust(ws.dir, env);
    expect(trust.status(settings)).toMatchObject({ needed: true, trusted: false });
    trust.grant(settings);
    expect(new WorkspaceTrust(ws.dir, env).status(settings)).toMatchObject({ needed: true, trusted: true, untrusted: [] });
    // Another config folder (another user) has not trusted it.
    expect(new WorkspaceTrust(ws.dir, { CREWDECK_CONFIG_DIR: join(configDir, 'other') }).status(settings).trusted).toBe(false);
  });
});

describe('workspace trust (host)', () => {
  it('trust.status reports the held parts; runs.start is refused until trust.grant, a key is never sent before', async () => {
    const server = await startScriptedServer();
    const { ws, marker } = mcpWorkspace();
    const settings = JSON.parse(readFileSync(ws.path('crewdeck.json'), 'utf8'));
    settings.models = { profiles: { proxy: { provider: 'openai', model: 'm', baseUrl: server.baseUrl, apiKeyEnv: 'PROXY_KEY', maxRetries: 0 } } };
    ws.write('crewdeck.json', settings);
    ws.write('keyed.crew.json', scriptedCrew({
      agents: [{ id: 'a', role: 'Writer', goal: 'write', llm: 'proxy' }],
      tasks: [{ id: 't', description: 'Write', expectedOutput: 'text', agentId: 'a' }],
    }));
    // The process's CREWDECK_CONFIG_DIR (test/support/userConfigDir.ts) has never trusted this workspace.
    // The person confirms with the code the serving terminal printed (rendererSelfTrust.test.ts covers refusals).
    const host = createHostService({ workspace: ws.dir, transport: 'websocket', env: { PROXY_KEY: 'proxy-secret-key' }, confirmTrust: new TerminalCodeConfirmer(() => {}, Date.now, () => '424242') });
    try {
      const status = await host.handle('trust.status', {});
      expect(status).toMatchObject({ ok: true, response: { needed: true, trusted: false } });
      const parts = (status as { response: { parts: { where: string; summary: string; trusted: boolean }[] } }).response.parts;
      expect(parts.map((p) => `${p.where}: ${p.summary}`)).toEqual([
        expect.stringMatching(/^crewdeck\.json mcp\.servers\.marker: runs: /),
        `crewdeck.json models.profiles.proxy: sends $PROXY_KEY to ${new URL(server.baseUrl).host}`,
      ]);
      for (const path of ['echo.crew.json', 'keyed.crew.json']) {
        const refused = await host.handle('runs.start', { path });
        expect(refused).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringContaining('crewdeck trust') } });
      }
      expect(existsSync(marker)).toBe(false);
      expect(server.requests).toHaveLength(0);

      expect(await host.handle('trust.grant', {})).toMatchObject({ ok: true, response: { trusted: false, confirmation: { codeRequired: true } } });
      expect(server.requests).toHaveLength(0);
      expect(await host.handle('trust.grant', { code: '424242' })).toMatchObject({ ok: true, response: { needed: true, trusted: true } });
      server.enqueue({ content: 'written' });
      const started = await host.handle('runs.start', { path: 'keyed.crew.json' });
      expect(started.ok, JSON.stringify(started)).toBe(true);
      for (let i = 0; i < 100 && server.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(server.requests[0]?.headers.authorization).toBe('Bearer proxy-secret-key');
    } finally {
      await host.close();
      await server.close();
    }
  });
});
