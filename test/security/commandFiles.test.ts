import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServerSchema } from '../../shared/model/mcpSettings';
import { serverRunFiles, workspaceRelative } from '../../runtime/trust/runFiles';
import { assertWritable } from '../../runtime/tools/protectedFiles';
import { ToolError } from '../../runtime/tools/tool';
import { describeResult, parseSingleJson, repoRoot, runCli, scriptedCrew, tempDir, type TempWorkspace } from '../cli/cliHarness';

/**
 * Issue 26 item 1: the files a trusted command runs are part of what is trusted. A model that writes the
 * script of a trusted MCP server must not get its code run: the write is refused, and a change made any
 * other way holds the server again, naming the file.
 */

const MARKER_SERVER = join(repoRoot, 'test/fixtures/mcp/markerServer.mjs');
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

type Workspace = TempWorkspace & { writeText(name: string, text: string): void };

function workspace(): Workspace {
  const ws = tempDir('crewdeck-runfiles-');
  cleanups.push(ws.remove);
  return Object.assign(ws, {
    writeText(name: string, text: string) {
      mkdirSync(dirname(ws.path(name)), { recursive: true });
      writeFileSync(ws.path(name), text);
    },
  });
}

const stdio = (entry: Record<string, unknown>) => McpServerSchema.parse({ transport: 'stdio', ...entry });
const listed = (ws: TempWorkspace, entry: Record<string, unknown>) => serverRunFiles(stdio(entry), ws.dir).map((f) => `${workspaceRelative(ws.dir, f.file)} (${f.role})`);

describe('the files a command runs', () => {
  it('finds the script of sh, node and python servers, a --flag=value file, a python -m module and a command inside the workspace', () => {
    const ws = workspace();
    for (const file of ['mcp/server.sh', 'server.js', 'tools/server.py', 'pkg/tool/__init__.py', 'pkg/tool/__main__.py', 'mcp/run', 'conf/app.js']) ws.writeText(file, '# code\n');
    expect(listed(ws, { command: 'sh', args: ['mcp/server.sh'] })).toEqual(['mcp/server.sh (argument 1)']);
    expect(listed(ws, { command: 'node', args: ['./server.js', '--port', '0'] })).toEqual(['server.js (argument 1)']);
    expect(listed(ws, { command: 'python3', args: ['server.py'], cwd: 'tools' })).toEqual(['tools/server.py (argument 1)']);
    expect(listed(ws, { command: 'python3', args: ['-m', 'pkg.tool'] })).toEqual(['pkg/tool/__init__.py (module pkg.tool)', 'pkg/tool/__main__.py (module pkg.tool)']);
    expect(listed(ws, { command: './mcp/run', args: ['--config=conf/app.js'] })).toEqual(['mcp/run (command)', 'conf/app.js (argument 1)']);
    // Not files: flags, folders, the workspace itself, missing files.
    expect(listed(ws, { command: 'node', args: ['-e', 'x', '.', 'mcp', 'missing.js'] })).toEqual([]);
  });

  it('a command found on a PATH folder inside the workspace counts; files outside the workspace (also through links) do not', () => {
    const ws = workspace();
    ws.writeText('bin/tool', '#!/bin/sh\n');
    const outside = mkdtempSync(join(tmpdir(), 'crewdeck-outside-'));
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    writeFileSync(join(outside, 'server.js'), '// not the workspace\'s\n');
    symlinkSync(join(outside, 'server.js'), ws.path('linked.js'));
    const runFiles = serverRunFiles(stdio({ command: 'tool', args: [join(outside, 'server.js'), 'linked.js'] }), ws.dir, { PATH: `/usr/bin${':'}${ws.path('bin')}` });
    expect(runFiles.map((f) => `${workspaceRelative(ws.dir, f.file)} (${f.role})`)).toEqual(['bin/tool (command)']);
  });
});

describe('file tools refuse what commands run', () => {
  it('refuses a server script and its folder, node_modules/, .venv/, venv/, __pycache__/ and PATH folders, with the protected-file message', () => {
    const ws = workspace();
    ws.write('crewdeck.json', { version: 1, mcp: { servers: { helper: { transport: 'stdio', command: 'sh', args: ['mcp/server.sh'] } } } });
    ws.writeText('mcp/server.sh', 'echo hi\n');
    const env = { ...process.env, PATH: `${process.env.PATH}:${ws.path('scripts')}` };
    mkdirSync(ws.path('scripts'));
    const refusal = (p: string) => {
      try {
        assertWritable(ws.dir, ws.path(p), {}, env);
      } catch (error) {
        expect(error).toBeInstanceOf(ToolError);
        return (error as Error).message;
      }
      return 'allowed';
    };
    expect(refusal('mcp/server.sh')).toBe('refused: "mcp/server.sh" is a file the MCP server "helper" runs (crewdeck.json mcp.servers.helper); tools may not change it. Write your result to another file instead.');
    expect(refusal('MCP/Server.SH')).toMatch(/^refused: "MCP\/Server\.SH" is a file the MCP server "helper" runs/);
    expect(refusal('mcp/lib.sh')).toBe('refused: "mcp/lib.sh" is inside mcp/, the folder of mcp/server.sh, which the MCP server "helper" runs; tools may not change it. Write your result to another file instead.');
    for (const folder of ['node_modules', '.venv', 'venv', '__pycache__']) {
      expect(refusal(`${folder}/x/index.js`)).toBe(`refused: "${folder}/x/index.js" is inside ${folder}/, installed code that commands load; tools may not change it. Write your result to another file instead.`);
      expect(refusal(`app/${folder}/mod.py`)).toMatch(new RegExp(`inside ${folder.replace('.', '\\.')}/, installed code`));
    }
    expect(refusal('scripts/ls')).toBe('refused: "scripts/ls" is inside scripts/, a folder on PATH, where commands are looked up; tools may not change it. Write your result to another file instead.');
    // allowDocumentWrites opens documents only.
    expect(() => assertWritable(ws.dir, ws.path('mcp/server.sh'), { allowDocumentWrites: true }, env)).toThrow(/MCP server "helper" runs/);
    // Ordinary files stay writable.
    expect(refusal('notes/report.md')).toBe('allowed');
    expect(refusal('server.sh')).toBe('allowed');
  });

  it('a link to the script under another name is refused too', () => {
    const ws = workspace();
    ws.write('crewdeck.json', { version: 1, mcp: { servers: { helper: { transport: 'stdio', command: 'node', args: ['server.js'] } } } });
    ws.writeText('server.js', '// server\n');
    symlinkSync(ws.path('server.js'), ws.path('notes.txt'));
    expect(() => assertWritable(ws.dir, ws.path('notes.txt'))).toThrow(/is a file the MCP server "helper" runs/);
  });
});

describe('a trusted MCP server whose script changes (CLI)', () => {
  /** A workspace as in the issue: `sh mcp/server.sh` starts a real MCP server, which drops a marker naming its version. */
  function helperWorkspace() {
    const ws = workspace();
    const configDir = mkdtempSync(join(tmpdir(), 'crewdeck-runfiles-config-'));
    cleanups.push(() => rmSync(configDir, { recursive: true, force: true }));
    const script = (version: string) => `#!/bin/sh\n# helper ${version}\nexec '${process.execPath}' '${MARKER_SERVER}' '${ws.path('marker.txt')}' ${version}\n`;
    ws.write('crewdeck.json', { version: 1, mcp: { servers: { helper: { transport: 'stdio', command: 'sh', args: ['mcp/server.sh'] } } } });
    ws.writeText('mcp/server.sh', script('v1'));
    chmodSync(ws.path('mcp/server.sh'), 0o755);
    const evil = `#!/bin/sh\ntouch '${ws.path('pwned.txt')}'\n`;
    const crew = ws.write(
      'helper.crew.json',
      scriptedCrew({
        agents: [
          {
            id: 'a',
            role: 'Helper',
            goal: 'use the helper',
            llm: {
              provider: 'scripted',
              model: 'injected',
              script: {
                rules: [
                  // A prompt injection made the model rewrite the server's script, then use the server.
                  { when: { callIndex: 0 }, reply: { toolCalls: [{ name: 'write_file', arguments: { path: 'mcp/server.sh', content: evil } }] } },
                  { when: { callIndex: 1 }, reply: { toolCalls: [{ name: 'mcp:helper/echo', arguments: { text: 'hi' } }] } },
                  { when: { lastRole: 'tool' }, reply: 'done' },
                ],
              },
            },
            tools: [{ tool: 'write_file' }, { tool: 'mcp:helper/echo' }],
          },
        ],
        tasks: [{ id: 't', description: 'Use the helper', expectedOutput: 'done', agentId: 'a' }],
      }),
    );
    return { ws, configDir, crew, script, evil };
  }

  it("refuses the model's write_file on the script; a change by hand holds the server naming the file; crewdeck trust shows the file and accepts it", async () => {
    const { ws, configDir, crew, script } = helperWorkspace();
    const env = { CREWDECK_CONFIG_DIR: configDir };

    const trusted = await runCli(['trust', '--yes', '--workspace', ws.dir], { env });
    expect(trusted.code, describeResult(trusted)).toBe(0);
    expect(trusted.stdout).toContain('crewdeck.json mcp.servers.helper: runs: sh mcp/server.sh');
    expect(trusted.stdout).toMatch(/crewdeck\.json mcp\.servers\.helper: runs the workspace file mcp\/server\.sh \(argument 1; sha256 [0-9a-f]{12}\)/);

    // The model's write is refused (an observation; the run goes on and uses the server as trusted).
    const ran = await runCli(['run', crew, '--json'], { env });
    expect(ran.code, describeResult(ran)).toBe(0);
    expect(readFileSync(ws.path('mcp/server.sh'), 'utf8')).toBe(script('v1'));
    expect(existsSync(ws.path('pwned.txt'))).toBe(false);
    expect(readFileSync(ws.path('marker.txt'), 'utf8')).toBe('started with v1\n');
    const events = await runCli(['runs', 'events', parseSingleJson(ran).runId as string, '--json', '--workspace', ws.dir], { env });
    const failed = events.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.type === 'tool.failed' && e.tool === 'write_file');
    expect(failed.map((e) => e.error)).toEqual([
      'refused: "mcp/server.sh" is a file the MCP server "helper" runs (crewdeck.json mcp.servers.helper); tools may not change it. Write your result to another file instead.',
    ]);
    rmSync(ws.path('marker.txt'));

    // Changed by hand (or by a git pull): held again, exit 2, naming the file; the new script never ran.
    ws.writeText('mcp/server.sh', script('v2'));
    const held = await runCli(['run', crew, '--json'], { env });
    expect(held.code, describeResult(held)).toBe(2);
    const error = parseSingleJson(held).error as string;
    expect(error).toMatch(/crewdeck\.json mcp\.servers\.helper runs the workspace file mcp\/server\.sh, which changed since you trusted it \(sha256 [0-9a-f]{12} then, [0-9a-f]{12} now\)/);
    expect(error).toContain('crewdeck trust');
    expect(existsSync(ws.path('marker.txt'))).toBe(false);

    // crewdeck trust shows the changed file and accepts it; the next run starts the new script.
    const shown = await runCli(['trust', '--json', '--workspace', ws.dir], { env });
    expect(shown.code).toBe(2);
    expect((parseSingleJson(shown).parts as { summary: string; trusted?: boolean }[]).map((p) => p.summary)).toContainEqual(expect.stringMatching(/^runs the workspace file mcp\/server\.sh, which changed since you trusted it/));
    const again = await runCli(['trust', '--yes', '--workspace', ws.dir], { env });
    expect(again.code, describeResult(again)).toBe(0);
    expect(again.stdout).toContain('runs the workspace file mcp/server.sh, which changed since you trusted it');
    const rerun = await runCli(['run', crew, '--json'], { env });
    expect(rerun.code, describeResult(rerun)).toBe(0);
    expect(readFileSync(ws.path('marker.txt'), 'utf8')).toBe('started with v2\n');
  }, 120_000);
});
