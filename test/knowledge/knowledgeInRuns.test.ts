import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KnowledgeSourceError } from '../../runtime/knowledge/errors';
import { KNOWLEDGE_HEADING, prepareRunKnowledge } from '../../runtime/knowledge/runKnowledge';
import { openWorkspaceKnowledge } from '../../runtime/knowledge/workspaceKnowledge';
import * as lancedb from '@lancedb/lancedb';
import { WorkspaceSettingsSchema } from '../../shared/model/workspace';
import { KNOWLEDGE_TABLE } from '../../runtime/knowledge/knowledgeStore';
import { knowledgeDir } from '../../runtime/knowledge/workspaceKnowledge';
import { agentPrompts, crew, ofType, runCrew, scripted, tempWorkspace } from '../support/crewHarness';
import { startScriptedServer } from '../support/scriptedServer';
import { trustWorkspace } from '../support/trustWorkspace';

const FIXTURES = join(__dirname, '..', 'fixtures', 'knowledge');
let ws: ReturnType<typeof tempWorkspace>;

beforeEach(() => {
  ws = tempWorkspace('crewdeck-knowledge-run-');
  copyFileSync(join(FIXTURES, 'warranty.pdf'), join(ws.dir, 'warranty.pdf'));
  copyFileSync(join(FIXTURES, 'people.csv'), join(ws.dir, 'people.csv'));
});
afterEach(() => ws.remove());

const TASK = 'Write Ada Lovelace, our analytics engineer, a note on how long the Sunbright panels warranty lasts';

function solarCrew(extra: Record<string, unknown> = {}) {
  return crew({
    id: 'solar-crew',
    knowledge: [
      { type: 'file', path: 'warranty.pdf' },
      { type: 'file', path: 'people.csv', name: 'staff list' },
    ],
    agents: [
      {
        id: 'writer',
        role: 'Writer',
        goal: 'Write notes',
        llm: scripted({ default: 'Dear Ada, the panels are covered for 25 years.' }),
        knowledge: [{ type: 'text', name: 'house style', text: 'Notes about the Sunbright warranty start with "Dear" and the first name, Ada.' }],
      },
      { id: 'checker', role: 'Checker', goal: 'Check notes', llm: scripted({ default: 'Looks right.' }) },
    ],
    tasks: [
      { id: 'note', description: TASK, expectedOutput: 'A short note', agentId: 'writer' },
      { id: 'check', description: TASK.replace('Write', 'Check the note to'), expectedOutput: 'OK or a fix', agentId: 'checker', context: 'none' },
    ],
    ...extra,
  });
}

describe('knowledge in runs', () => {
  it('embeds sources with the embedder crewdeck.json names, re-embedding chunks another embedder made', async () => {
    const embedderOf = async () => {
      const db = await lancedb.connect(knowledgeDir(ws.dir));
      const table = await db.openTable(KNOWLEDGE_TABLE);
      const id = (await table.schema()).metadata.get('crewdeck.embedder');
      const rows = await table.countRows();
      table.close();
      return { id, rows };
    };
    await runCrew(solarCrew(), { workspace: ws });
    const offline = await embedderOf();
    expect(offline.id).toBe('hashing-v1-384');

    const server = await startScriptedServer({ embeddingDimensions: 48 });
    try {
      const settings = WorkspaceSettingsSchema.parse({
        version: 1,
        memory: { embedder: { provider: 'openai', model: 'embed-small', baseUrl: server.baseUrl, apiKeyEnv: 'EMBED_KEY' } },
      });
      trustWorkspace(ws.dir, settings); // the embedder sends EMBED_KEY to its own baseUrl
      const { result, events } = await runCrew(solarCrew(), { workspace: ws, settings, env: { EMBED_KEY: 'k' } });
      expect(result.status).toBe('completed');
      expect(await embedderOf()).toEqual({ id: 'openai:embed-small', rows: offline.rows });
      const embedded = server.requests.filter((r) => r.path.endsWith('/embeddings')).map((r) => JSON.stringify(r.body));
      expect(embedded.some((body) => body.includes('25 year performance warranty'))).toBe(true); // a chunk of the PDF
      expect(embedded.some((body) => body.includes(TASK))).toBe(true); // and the task's query
      const [prompt] = agentPrompts(events, 'Writer');
      expect(prompt).toContain('[Source: warranty.pdf] Sunbright Solar warranty terms.');
    } finally {
      await server.close();
    }
  });

  it('puts a PDF chunk and a CSV chunk with their source names into the task prompt and the trace', async () => {
    const { result, events } = await runCrew(solarCrew(), { workspace: ws });
    expect(result.status).toBe('completed');

    const [prompt] = agentPrompts(events, 'Writer');
    expect(prompt).toContain(`${KNOWLEDGE_HEADING}:`);
    expect(prompt).toMatch(/\[Source: warranty\.pdf\] Sunbright Solar warranty terms\.\nSunbright panels carry a 25 year performance warranty\./);
    expect(prompt).toContain('[Source: staff list] name: Ada Lovelace; role: engineer; team: analytics');
    expect(prompt).toContain('[Source: house style] Notes about the Sunbright warranty');

    const retrieved = ofType(events, 'knowledge.retrieved');
    expect(retrieved.map((e) => [e.taskId, e.agentRole])).toEqual([
      ['note', 'Writer'],
      ['check', 'Checker'],
    ]);
    const note = retrieved[0];
    expect(note!.query).toBe(TASK);
    expect(note!.chunks.map((c) => c.source).sort()).toEqual(['house style', 'staff list', 'warranty.pdf']);
    for (const c of note!.chunks) {
      expect(c.score).toBeGreaterThan(0.2);
      expect(c.score).toBeLessThanOrEqual(1);
      expect(prompt).toContain(`[Source: ${c.source}] ${c.content}`);
    }
    // On the task's span, before its agent starts.
    const taskStarted = ofType(events, 'task.started').find((e) => e.taskId === 'note')!;
    expect(note!.spanId).toBe(taskStarted.spanId);
    expect(events.indexOf(note!)).toBeLessThan(events.findIndex((e) => e.type === 'agent.started'));

    // An agent's own sources reach only that agent.
    expect(retrieved[1]!.chunks.map((c) => c.source).sort()).toEqual(['staff list', 'warranty.pdf']);
    expect(agentPrompts(events, 'Checker')[0]).not.toContain('house style');
  });

  it('does not re-ingest unchanged files on the next run, and replaces a changed one', async () => {
    await runCrew(solarCrew(), { workspace: ws });
    const store = await openWorkspaceKnowledge(ws.dir);
    const version = await store.version();
    store.close();

    const prepared = await prepareRunKnowledge(ws.dir, solarCrew());
    expect(prepared!.ingested.map((i) => [i.name, i.status])).toEqual([
      ['warranty.pdf', 'unchanged'],
      ['staff list', 'unchanged'],
      ['house style', 'unchanged'],
    ]);
    prepared!.close();
    const { events } = await runCrew(solarCrew(), { workspace: ws });
    expect(ofType(events, 'knowledge.retrieved')[0]!.chunks.length).toBe(3);
    const after = await openWorkspaceKnowledge(ws.dir);
    expect(await after.version()).toBe(version);
    after.close();

    writeFileSync(join(ws.dir, 'people.csv'), 'name,role\nAda Lovelace,chief engineer\n');
    const again = await runCrew(solarCrew(), { workspace: ws });
    const [prompt] = agentPrompts(again.events, 'Writer');
    expect(prompt).toContain('[Source: staff list] name: Ada Lovelace; role: chief engineer');
    expect(prompt).not.toContain('team: analytics');
  });

  it('leaves out chunks under the threshold and honours the limit', async () => {
    const strict = await runCrew(solarCrew({ knowledgeSettings: { minScore: 0.99 } }), { workspace: ws });
    expect(ofType(strict.events, 'knowledge.retrieved')[0]!.chunks).toEqual([]);
    expect(agentPrompts(strict.events, 'Writer')[0]).not.toContain(KNOWLEDGE_HEADING);
    const one = await runCrew(solarCrew({ knowledgeSettings: { limit: 1 } }), { workspace: ws });
    expect(ofType(one.events, 'knowledge.retrieved')[0]!.chunks).toHaveLength(1);
  });

  it('fails the run, naming the source, when a source cannot be read', async () => {
    const doc = solarCrew({ knowledge: [{ type: 'file', path: 'missing.pdf' }] });
    const { result, events } = await runCrew(doc, { workspace: ws });
    expect(result.status).toBe('failed');
    expect(result.error).toEqual({ name: 'KnowledgeSourceError', message: 'knowledge source "missing.pdf": file not found (missing.pdf)' });
    expect(ofType(events, 'run.failed')[0]!.error).toBe('knowledge source "missing.pdf": file not found (missing.pdf)');
    expect(events.some((e) => e.type === 'task.started')).toBe(false);
    await expect(prepareRunKnowledge(ws.dir, doc)).rejects.toThrow(KnowledgeSourceError);
  });

  it('needs no store when the crew declares no sources', async () => {
    expect(await prepareRunKnowledge(ws.dir, crew({ agents: [{ id: 'a', role: 'A', goal: 'g' }], tasks: [{ id: 't', description: 'd', expectedOutput: 'e', agentId: 'a' }] }))).toBeUndefined();
  });
});
