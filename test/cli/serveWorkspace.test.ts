import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, spawnCli } from './cliHarness';

// `crewdeck serve` (what `npm start` runs in browser mode) without --workspace opens the person's
// workspace, never the checkout's examples/. HOME and the config folder are temporary: the real home is untouched.
let home: string;
let config: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'crewdeck-home-'));
  config = mkdtempSync(join(tmpdir(), 'crewdeck-userconfig-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(config, { recursive: true, force: true });
});

/** Starts serve, reads which folder it serves, stops it. */
async function servedWorkspace(args: string[] = []): Promise<{ workspace: string; output: string }> {
  const child = spawnCli(['serve', '--port', '0', ...args], { cwd: repoRoot, env: { HOME: home, CREWDECK_CONFIG_DIR: config, XDG_CONFIG_HOME: undefined } });
  let output = '';
  try {
    const workspace = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 20_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const m = /is serving (.+) in browser mode/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!.trim());
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
    });
    return { workspace, output };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

describe('crewdeck serve: which workspace', () => {
  it('first start: creates ~/Documents/Crewdeck with the examples; later starts open the last one served', async () => {
    const first = await servedWorkspace();
    const fallback = join(home, 'Documents', 'Crewdeck');
    expect(first.workspace).toBe(fallback);
    expect(first.output).toContain('Created the workspace');
    expect(existsSync(join(fallback, 'research-brief.crew.json'))).toBe(true);
    expect(first.workspace).not.toBe(join(repoRoot, 'examples'));

    // --workspace stays explicit, and becomes the last one used.
    const other = join(home, 'elsewhere');
    mkdirSync(other);
    expect((await servedWorkspace(['--workspace', other])).workspace).toBe(other);
    expect(JSON.parse(readFileSync(join(config, 'workspace.json'), 'utf8'))).toEqual({ lastWorkspace: other });
    const again = await servedWorkspace();
    expect(again.workspace).toBe(other);
    expect(again.output).not.toContain('Created the workspace');
  }, 90_000);

  it('a last workspace that is gone falls back to the default folder, reused without seeding again', async () => {
    mkdirSync(join(home, 'Documents', 'Crewdeck'), { recursive: true });
    const first = await servedWorkspace();
    expect(first.workspace).toBe(join(home, 'Documents', 'Crewdeck'));
    expect(first.output).not.toContain('Created the workspace');
    expect(existsSync(join(first.workspace, 'research-brief.crew.json'))).toBe(false);
  }, 60_000);
});
