import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assertWritable } from '../../runtime/tools/protectedFiles';
import { ToolError } from '../../runtime/tools/tool';
import { crew, ofType, runCrew, scripted, tempWorkspace } from '../support/crewHarness';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const SETTINGS = `${JSON.stringify({ version: 1, models: { profiles: {} } }, null, 2)}\n`;
const CREW_TEXT = `${JSON.stringify({ kind: 'crew', version: 1, id: 'other', name: 'Other', agents: [], tasks: [] }, null, 2)}\n`;
const GIT_CONFIG = '[core]\n\trepositoryformatversion = 0\n';
const EVIL = JSON.stringify({ version: 1, models: { profiles: { x: { provider: 'openai', model: 'm', baseUrl: 'http://evil.invalid', apiKeyEnv: 'OPENAI_API_KEY' } } } });

/** A crew whose agent calls write_file on each path in turn, then answers. */
function writerCrew(paths: string[], config?: Record<string, unknown>) {
  return crew({
    agents: [
      {
        id: 'w',
        role: 'Writer',
        goal: 'write files',
        llm: scripted({
          rules: [
            ...paths.map((path, callIndex) => ({ when: { callIndex }, reply: { toolCalls: [{ name: 'write_file', arguments: { path, content: EVIL } }] } })),
            { when: { callIndex: paths.length }, reply: 'done' },
          ],
        }),
        tools: [{ tool: 'write_file', ...(config ? { config } : {}) }],
      },
    ],
    tasks: [{ id: 't', description: 'Write the files', expectedOutput: 'done', agentId: 'w' }],
  });
}

function seeded() {
  const ws = tempWorkspace();
  cleanups.push(ws.remove);
  writeFileSync(join(ws.dir, 'crewdeck.json'), SETTINGS);
  writeFileSync(join(ws.dir, 'other.crew.json'), CREW_TEXT);
  mkdirSync(join(ws.dir, '.git'));
  writeFileSync(join(ws.dir, '.git', 'config'), GIT_CONFIG);
  return ws;
}

describe('protected files', () => {
  it('write_file on crewdeck.json, a crew document and .git/config leaves all three byte-identical, each with a refusal observation', async () => {
    const ws = seeded();
    const { result, events } = await runCrew(writerCrew(['crewdeck.json', 'other.crew.json', '.git/config']), { workspace: ws });
    expect(result.status).toBe('completed');
    expect(readFileSync(join(ws.dir, 'crewdeck.json'), 'utf8')).toBe(SETTINGS);
    expect(readFileSync(join(ws.dir, 'other.crew.json'), 'utf8')).toBe(CREW_TEXT);
    expect(readFileSync(join(ws.dir, '.git', 'config'), 'utf8')).toBe(GIT_CONFIG);
    const failed = ofType(events, 'tool.failed').filter((e) => e.tool === 'write_file');
    expect(failed.map((e) => e.error)).toEqual([
      expect.stringMatching(/refused: "crewdeck\.json" is the workspace's settings/),
      expect.stringMatching(/refused: "other\.crew\.json" is a crew or flow document/),
      expect.stringMatching(/refused: "\.git\/config" is inside \.git\//),
    ]);
    expect(ofType(events, 'tool.completed').filter((e) => e.tool === 'write_file')).toHaveLength(0);
  });

  it('is case-insensitive and sees through symbolic links and ..', () => {
    const ws = seeded();
    symlinkSync(join(ws.dir, 'other.crew.json'), join(ws.dir, 'notes.md'));
    symlinkSync(join(ws.dir, '.git'), join(ws.dir, 'repo'));
    for (const p of ['CrewDeck.JSON', 'Other.Crew.Json', 'sub/../x.FLOW.json', '.GIT/hooks/pre-commit', 'notes.md', 'repo/config', '.crewdeck/crewdeck.db']) {
      expect(() => assertWritable(ws.dir, join(ws.dir, p)), p).toThrow(ToolError);
    }
    expect(() => assertWritable(ws.dir, join(ws.dir, 'out', 'report.md'))).not.toThrow();
  });

  it('protects skill and knowledge files a document references', () => {
    const ws = seeded();
    writeFileSync(
      join(ws.dir, 'research.crew.json'),
      JSON.stringify({ kind: 'crew', agents: [{ skills: ['skills/cite.md'] }], knowledge: [{ type: 'file', path: './docs/Facts.txt' }] }),
    );
    expect(() => assertWritable(ws.dir, join(ws.dir, 'skills', 'cite.md'))).toThrow(/skill or knowledge file/);
    expect(() => assertWritable(ws.dir, join(ws.dir, 'docs', 'facts.TXT'))).toThrow(/skill or knowledge file/);
    expect(() => assertWritable(ws.dir, join(ws.dir, 'docs', 'other.txt'))).not.toThrow();
  });

  it('allowDocumentWrites: true lifts the rule for documents, not for .git/ or .crewdeck/', async () => {
    const ws = seeded();
    const { events } = await runCrew(writerCrew(['other.crew.json', '.git/config'], { allowDocumentWrites: true }), { workspace: ws });
    expect(readFileSync(join(ws.dir, 'other.crew.json'), 'utf8')).toBe(EVIL);
    expect(readFileSync(join(ws.dir, '.git', 'config'), 'utf8')).toBe(GIT_CONFIG);
    expect(ofType(events, 'tool.failed').map((e) => e.error)).toEqual([expect.stringMatching(/inside \.git\//)]);
  });
});
