import { linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assertWritable } from '../../runtime/tools/protectedFiles';
import { writeFileTool } from '../../runtime/tools/writeFile';
import { resolveInWorkspace } from '../../runtime/tools/workspacePath';
import { tempWorkspace } from '../support/crewHarness';

/**
 * Review attacks (issue 13) on the protected-file names, checked on names alone (the test machine's
 * file system tells them apart; macOS and Windows ones do not):
 * - `crewdeck.jſon` (U+017F long s) is `crewdeck.json` on a case-insensitive APFS volume, which folds the
 *   Unicode way; `toLowerCase` alone leaves `ſ` as it is;
 * - `crewdeck.json.`, `crewdeck.json ` and `crewdeck.json::$DATA` are `crewdeck.json` on Windows;
 * - a hard link is the same file under an innocent name.
 */
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function workspace() {
  const ws = tempWorkspace('crewdeck-names-');
  cleanups.push(ws.remove);
  writeFileSync(join(ws.dir, 'crewdeck.json'), '{"version":1}\n');
  mkdirSync(join(ws.dir, 'skills'));
  writeFileSync(join(ws.dir, 'skills', 'research.md'), '# skill\n');
  writeFileSync(join(ws.dir, 'main.crew.json'), JSON.stringify({ kind: 'crew', version: 1, id: 'c', name: 'C', agents: [{ id: 'a', skills: ['skills/research.md'] }], tasks: [] }));
  return ws.dir;
}

const refused = (dir: string, name: string) => () => assertWritable(dir, join(dir, name));

describe('protected names as case- and stream-insensitive file systems see them', () => {
  it.each([
    'crewdeck.jſon', // ſ folds to s
    'CREWDEC\u212A.JSON', // Kelvin sign
    'crewdeck.json.',
    'crewdeck.json ',
    'crewdeck.json::$DATA',
    'main.crew.jſon',
    'x.FLOW.json...',
    '.git./config',
    '.GIT::$INDEX_ALLOCATION/hooks/pre-commit',
    '.crewdeck /crewdeck.db',
    'SKILLS/RESEARCH.MD.',
  ])('refuses %j', (name) => {
    const dir = workspace();
    expect(refused(dir, name)).toThrow(/refused/);
  });

  it('still allows ordinary names', () => {
    const dir = workspace();
    expect(() => assertWritable(dir, join(dir, 'notes.json'))).not.toThrow();
    expect(() => assertWritable(dir, join(dir, 'out', 'crewdeck-json.md'))).not.toThrow();
  });

  it('refuses to write through a hard link to crewdeck.json and leaves it unchanged', async () => {
    const dir = workspace();
    linkSync(join(dir, 'crewdeck.json'), join(dir, 'notes.md'));
    const ctx = { workspace: dir, config: {}, signal: new AbortController().signal } as unknown as Parameters<typeof writeFileTool.execute>[1];
    await expect(writeFileTool.execute({ path: 'notes.md', content: 'pwned' }, ctx)).rejects.toThrow(/hard links/);
    expect(readFileSync(join(dir, 'crewdeck.json'), 'utf8')).toBe('{"version":1}\n');
  });

  it.each(['.CrewDeck/crewdeck.db', '.crewdeck./crewdeck.db', '.crewdeck::$INDEX_ALLOCATION/crewdeck.db'])('no file tool (read_file included) resolves %j, the run database', (name) => {
    const dir = workspace();
    expect(() => resolveInWorkspace(dir, name)).toThrow(/\.crewdeck\/, Crewdeck's own data folder/);
  });
});
