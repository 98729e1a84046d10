import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseWorkspace, createWorkspace, LastWorkspace, workspaceArgument } from '../../electron/main/workspaceChoice';
import { repoRoot } from './support/nodeRuntimeChild';

let dir = '';
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'crewdeck-ws-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('which workspace the app opens', () => {
  it('reads --workspace from the command line, relative to the working directory', () => {
    expect(workspaceArgument(['/usr/bin/electron', '.', '--workspace', 'crews'], '/home/me')).toBe('/home/me/crews');
    expect(workspaceArgument(['/opt/Crewdeck/crewdeck', '--workspace=/data/w'], '/')).toBe('/data/w');
    expect(workspaceArgument(['/opt/Crewdeck/crewdeck', '--no-sandbox'], '/')).toBeUndefined();
  });

  it('prefers the argument, then the last workspace, then the default folder', () => {
    const a = join(dir, 'a');
    const last = join(dir, 'last');
    mkdirSync(a);
    mkdirSync(last);
    const fallback = join(dir, 'Crewdeck');
    expect(chooseWorkspace({ argument: a, last, fallback })).toEqual({ workspace: a, create: false });
    expect(chooseWorkspace({ last, fallback })).toEqual({ workspace: last, create: false });
    expect(chooseWorkspace({ last: join(dir, 'deleted'), fallback })).toEqual({ workspace: fallback, create: true });
    const missing = chooseWorkspace({ argument: join(dir, 'typo'), last, fallback });
    expect(missing.workspace).toBe(last);
    expect(missing.warning).toContain('typo');
  });

  it('remembers the last workspace; a broken file is as good as none', () => {
    const remembered = new LastWorkspace(join(dir, 'state', 'workspace.json'));
    expect(remembered.read()).toBeUndefined();
    remembered.write('/home/me/crews');
    expect(remembered.read()).toBe('/home/me/crews');
    writeFileSync(join(dir, 'state', 'workspace.json'), '{oops');
    expect(remembered.read()).toBeUndefined();
  });

  it('a new workspace gets the example crews, without run data', () => {
    const target = join(dir, 'Crewdeck');
    createWorkspace(target, join(repoRoot, 'examples'));
    expect(readdirSync(target).sort()).toEqual(expect.arrayContaining(['research-brief.crew.json', 'product-launch.crew.json', 'scripts', 'data']));
    expect(existsSync(join(target, '.crewdeck'))).toBe(false);
    expect(existsSync(join(target, 'out'))).toBe(false);
    expect(JSON.parse(readFileSync(join(target, 'research-brief.crew.json'), 'utf8')).kind).toBe('crew');
    const empty = join(dir, 'Empty');
    createWorkspace(empty, join(dir, 'no-examples-here'));
    expect(readdirSync(empty)).toEqual([]);
  });
});
