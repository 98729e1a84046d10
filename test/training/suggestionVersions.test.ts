import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, workspaceDatabasePath } from '../../runtime/store/database';
import { TrainingStore, type NewSuggestionVersion } from '../../runtime/training/trainingStore';
import { diffSuggestions } from '../../runtime/training/versionDiff';
import { SuggestionVersionNotFound, VersionConflict } from '../../runtime/training/trainingErrors';

const dirs: string[] = [];
const stores: TrainingStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function open(): { store: TrainingStore; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'crewdeck-versions-'));
  dirs.push(dir);
  let t = 1000;
  const store = TrainingStore.open(dir, () => (t += 1));
  stores.push(store);
  return { store, dir };
}

const version = (suggestions: string[], extra: Partial<NewSuggestionVersion> = {}): NewSuggestionVersion => ({
  crewId: 'c',
  role: 'Writer',
  status: 'active',
  suggestions,
  quality: 6,
  summary: 's',
  runIds: ['run_1'],
  recordIds: [],
  ...extra,
});

describe('suggestion versions', () => {
  it('numbers versions per crew and role; a new active version disables the active one', () => {
    const { store } = open();
    expect(store.addVersion(version(['a'])).version).toBe(1);
    expect(store.addVersion(version(['b'])).version).toBe(2);
    expect(store.addVersion(version(['x'], { role: 'Editor' })).version).toBe(1);
    expect(store.versions('c', 'Writer').map((v) => [v.version, v.status])).toEqual([
      [2, 'active'],
      [1, 'disabled'],
    ]);
    expect([...store.activeSuggestions('c')]).toEqual([
      ['Editor', { version: 1, suggestions: ['x'] }],
      ['Writer', { version: 2, suggestions: ['b'] }],
    ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
    expect(store.roles('c')).toEqual(['Editor', 'Writer']);
    expect(store.crews()).toEqual(['c']);
  });

  it('a draft does not replace the active version until activated; activating disables the other', () => {
    const { store } = open();
    store.addVersion(version(['a']));
    store.addVersion(version(['b'], { status: 'draft' }));
    expect(store.active('c', 'Writer')?.version).toBe(1);
    store.activate('c', 'Writer', 2);
    expect(store.versions('c', 'Writer').map((v) => [v.version, v.status])).toEqual([
      [2, 'active'],
      [1, 'disabled'],
    ]);
  });

  it('editing keeps the earlier lists in the history and marks the version edited', () => {
    const { store } = open();
    store.addVersion(version(['a', 'b']));
    store.editSuggestions('c', 'Writer', 1, ['a', 'b changed']);
    const edited = store.editSuggestions('c', 'Writer', 1, ['only one'], 'trimmed');
    expect(edited.suggestions).toEqual(['only one']);
    expect(edited.edited).toBe(true);
    expect(edited.history.map((h) => [h.suggestions, h.reason])).toEqual([
      [['a', 'b'], 'edited by hand'],
      [['a', 'b changed'], 'trimmed'],
    ]);
    expect(store.activeSuggestions('c').get('Writer')).toEqual({ version: 1, suggestions: ['only one'] });
  });

  it('rollback activates the version before the active one and disables the active one; at version 1 it refuses', () => {
    const { store } = open();
    store.addVersion(version(['a']));
    store.addVersion(version(['b']));
    store.addVersion(version(['c']));
    expect(store.rollback('c', 'Writer').version).toBe(2);
    expect(store.rollback('c', 'Writer').version).toBe(1);
    expect(store.versions('c', 'Writer').map((v) => [v.version, v.status])).toEqual([
      [3, 'disabled'],
      [2, 'disabled'],
      [1, 'active'],
    ]);
    expect(() => store.rollback('c', 'Writer')).toThrow(VersionConflict);
    expect(() => store.rollback('c', 'Writer')).toThrow(/version 1 is the first version/);
    store.disable('c', 'Writer', 1);
    expect(() => store.rollback('c', 'Writer')).toThrow(/no active suggestion version/);
    expect(store.activeSuggestions('c').size).toBe(0);
  });

  it('names the versions there are when one is missing', () => {
    const { store } = open();
    store.addVersion(version(['a']));
    expect(() => store.activate('c', 'Writer', 7)).toThrow(SuggestionVersionNotFound);
    expect(() => store.activate('c', 'Writer', 7)).toThrow('crew "c" role "Writer" has no suggestion version 7 (versions: 1)');
  });

  it('diffs two versions: added, removed, changed (reworded) and unchanged suggestions', () => {
    const diff = diffSuggestions(
      { version: 1, suggestions: ['Use bullet points for key facts.', 'Keep it under 200 words.', 'Cite sources.'] },
      { version: 2, suggestions: ['Cite sources.', 'Use bullet points for all key facts.', 'Address the reader directly.'] },
    );
    expect(diff).toEqual({
      from: 1,
      to: 2,
      unchanged: ['Cite sources.'],
      changed: [{ before: 'Use bullet points for key facts.', after: 'Use bullet points for all key facts.' }],
      removed: ['Keep it under 200 words.'],
      added: ['Address the reader directly.'],
    });
  });
});

describe('training data is plain data', () => {
  it('suggestions that look like code or pickles come back as the same strings and nothing runs', () => {
    const { store, dir } = open();
    const marker = join(dir, 'pwned');
    const g = globalThis as { __crewdeckPwned?: boolean };
    delete g.__crewdeckPwned;
    const payloads = [
      `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x'); globalThis.__crewdeckPwned = true;`,
      `(() => { globalThis.__crewdeckPwned = true })()`,
      "cos\nsystem\n(S'touch " + marker + "'\ntR.",
      '{"__proto__": {"polluted": true}, "toString": "function () { globalThis.__crewdeckPwned = true }"}',
      '${globalThis.__crewdeckPwned = true}',
    ];
    store.addVersion(version(payloads));
    store.editSuggestions('c', 'Writer', 1, [...payloads].reverse());
    store.createSession({ id: 'train_1', crewId: 'c', name: 'C', iterations: 1 });
    store.addRecord({ trainingId: 'train_1', runId: 'r', crewId: 'c', iteration: 1, taskId: 't', role: 'Writer', initialOutput: payloads[0]!, feedback: payloads[2]!, improvedOutput: payloads[3]! });
    store.close();
    stores.splice(stores.indexOf(store), 1);

    // Read back through a fresh connection, as the next process would.
    const again = TrainingStore.open(dir);
    stores.push(again);
    const v = again.version('c', 'Writer', 1);
    expect(v.suggestions).toEqual([...payloads].reverse());
    expect(v.history[0]!.suggestions).toEqual(payloads);
    expect(again.activeSuggestions('c').get('Writer')?.suggestions).toEqual([...payloads].reverse());
    const [record] = again.records({ crewId: 'c' });
    expect([record!.initialOutput, record!.feedback, record!.improvedOutput]).toEqual([payloads[0], payloads[2], payloads[3]]);
    expect(g.__crewdeckPwned).toBeUndefined();
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(existsSync(marker)).toBe(false);

    // On disk it is JSON text of strings: readable by any SQLite client, nothing to unpickle.
    const db = openDatabase(workspaceDatabasePath(dir));
    const row = db.prepare("SELECT typeof(suggestions) AS t, suggestions FROM suggestion_versions WHERE version = 1").get() as { t: string; suggestions: string };
    db.close();
    expect(row.t).toBe('text');
    expect(JSON.parse(row.suggestions)).toEqual([...payloads].reverse());
  });

  it('a stored value that is not a list of strings is refused, not used', () => {
    const { store, dir } = open();
    store.addVersion(version(['fine']));
    const db = openDatabase(workspaceDatabasePath(dir));
    db.prepare(`UPDATE suggestion_versions SET suggestions = '[{"code": "alert(1)"}]'`).run();
    db.close();
    expect(() => store.activeSuggestions('c')).toThrow('stored suggestions is not a list of strings');
  });
});
