import { afterEach, describe, expect, it } from 'vitest';
import { describeResult, runCli, tempDir, type TempWorkspace } from './cliHarness';

/**
 * Hostile or broken input is refused cleanly: exit 2, a message naming the file, line or field, and no
 * stack trace (no `    at …` frame, no bundled source line) — whichever command meets it.
 */
let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

/** No stack frame and no line of the bundled CLI's source in what the command printed. */
function expectNoStack(r: { stdout: string; stderr: string }): void {
  const out = r.stdout + r.stderr;
  expect(out).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(out).not.toContain('dist/cli/');
  expect(out).not.toContain('Node.js v');
}

const scriptedCrew = {
  kind: 'crew',
  version: 1,
  id: 'c',
  name: 'C',
  agents: [{ id: 'a', role: 'Writer', goal: 'Write', llm: { provider: 'scripted', model: 'm', script: { default: 'ok' } } }],
  tasks: [{ id: 't', description: 'Say {topic}', expectedOutput: 'Text', agentId: 'a' }],
};

describe('clean refusals (exit 2, the file and field named, no stack)', { timeout: 120_000 }, () => {
  it('an invalid crewdeck.json, for every command that reads it', async () => {
    ws = tempDir('crewdeck-refusal-settings-');
    ws.write('crewdeck.json', { version: 1, knowledge: { sources: [{ type: 'url', url: 'http://127.0.0.1:9/x' }] } });
    ws.write('c.crew.json', scriptedCrew);
    ws.write('notes.txt', 'Some notes.');
    for (const args of [['knowledge', 'list'], ['knowledge', 'ingest', 'notes.txt'], ['memory', 'list'], ['run', 'c.crew.json', '--input', 'topic=x'], ['trust']]) {
      const r = await runCli(args, { cwd: ws.dir });
      expect(r.code, `${args.join(' ')}\n${describeResult(r)}`).toBe(2);
      expect(r.stderr).toContain(`${ws.path('crewdeck.json')} is not a valid document`);
      expect(r.stderr).toContain('(document): Unrecognized key: "knowledge"');
      expectNoStack(r);
    }
    const json = await runCli(['knowledge', 'list', '--json'], { cwd: ws.dir });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'invalid', problems: [{ path: '(document)', message: 'Unrecognized key: "knowledge"' }] });
  });

  it('knowledge list and ingest on an untrusted workspace', async () => {
    ws = tempDir('crewdeck-refusal-untrusted-');
    ws.write('crewdeck.json', { version: 1, memory: { embedder: { provider: 'openai', model: 'embed', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'EMBED_KEY' } } });
    ws.write('notes.txt', 'Some notes.');
    for (const args of [['knowledge', 'list'], ['knowledge', 'ingest', 'notes.txt']]) {
      const r = await runCli(args, { cwd: ws.dir, env: { EMBED_KEY: 'embed-key-123456' } });
      expect(r.code, `${args.join(' ')}\n${describeResult(r)}`).toBe(2);
      expect(r.stderr).toContain('this workspace is not trusted, and crewdeck.json memory.embedder sends $EMBED_KEY to 127.0.0.1:9');
      expect(r.stderr).toContain('crewdeck trust');
      expectNoStack(r);
    }
  });
});
