import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostPush } from '../../shared/host-api';
import { parseCrewDocument } from '../../shared/model/parse';
import { createHostService } from '../../runtime/host/createHostService';
import type { HostService } from '../../runtime/host/hostService';

const fixtures = join(import.meta.dirname, '../fixtures/crewai');
let workspace: string;
let host: HostService;
let pushes: HostPush[];

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'crewdeck-host-crewai-'));
  host = createHostService({ workspace, transport: 'websocket', env: {} });
  pushes = [];
  host.subscribe((p) => pushes.push(p));
});
afterEach(async () => {
  await host.close();
  rmSync(workspace, { recursive: true, force: true });
});

describe('documents.importCrewai', () => {
  it('imports a project by absolute path into a new crew file and returns the unmapped items', async () => {
    cpSync(join(fixtures, 'market_research'), join(workspace, 'market_research'), { recursive: true });
    const result = await host.handle('documents.importCrewai', { dir: join(workspace, 'market_research') });
    if (!result.ok) throw new Error(result.error.message);
    const { path, unmapped, sourceFiles } = result.response as { path: string; unmapped: { item: string; why: string }[]; sourceFiles: string[] };
    expect(path).toBe('market_research.crew.json');
    expect(parseCrewDocument(JSON.parse(readFileSync(join(workspace, path), 'utf8'))).ok).toBe(true);
    expect(unmapped.find((u) => u.item.includes('MarketSizeTool'))).toBeUndefined();
    expect(JSON.parse(readFileSync(join(workspace, 'crewdeck.json'), 'utf8')).mcp.servers['market-research-tools']).toMatchObject({ transport: 'python', modules: ['market_research.tools.custom_tool'] });
    // Its models are profiles in the workspace's crewdeck.json.
    expect(JSON.parse(readFileSync(join(workspace, 'crewdeck.json'), 'utf8')).models.profiles['ollama/llama3.1']).toMatchObject({ model: 'llama3.1', baseUrl: 'http://localhost:11434/v1' });
    expect(sourceFiles).toContain('src/market_research/crew.py');
    expect(pushes.some((p) => p.kind === 'documents.changed')).toBe(true);

    const list = await host.handle('documents.list', {});
    expect(list.ok && (list.response as { documents: { path: string }[] }).documents.map((d) => d.path)).toContain('market_research.crew.json');
  });

  it('accepts a workspace-relative folder and never overwrites: a second import gets a new name', async () => {
    cpSync(join(fixtures, 'launch_campaign'), join(workspace, 'projects/launch'), { recursive: true });
    const first = await host.handle('documents.importCrewai', { dir: 'projects/launch' });
    const second = await host.handle('documents.importCrewai', { dir: 'projects/launch' });
    const pathOf = (r: typeof first) => (r.ok ? (r.response as { path: string }).path : r.error.message);
    expect(pathOf(first)).toBe('launch_campaign.crew.json');
    expect(pathOf(second)).toBe('launch_campaign-2.crew.json');
  });

  it('writes one crew per @CrewBase class and the flow main.py chains them with, and names the flow as the one to open', async () => {
    cpSync(join(fixtures, 'patterns/three_crews'), join(workspace, 'newsletter'), { recursive: true });
    const result = await host.handle('documents.importCrewai', { dir: 'newsletter' });
    if (!result.ok) throw new Error(result.error.message);
    const { path, documents } = result.response as { path: string; documents: { path: string; kind: string }[] };
    expect(path).toBe('newsletter_pipeline.flow.json');
    expect(documents).toEqual([
      { path: 'newsletter_pipeline.flow.json', kind: 'flow' },
      ...['collect_crew', 'write_crew', 'check_crew'].map((id) => ({ path: `${id}.crew.json`, kind: 'crew' })),
    ]);
    for (const d of documents.slice(1)) expect(parseCrewDocument(JSON.parse(readFileSync(join(workspace, d.path), 'utf8'))).ok).toBe(true);
  });

  it('imports a plain-script project (Agent/Task/Crew built without @CrewBase) as a crew', async () => {
    cpSync(join(fixtures, 'patterns/plain_script'), join(workspace, 'digest'), { recursive: true });
    const result = await host.handle('documents.importCrewai', { dir: 'digest' });
    if (!result.ok) throw new Error(result.error.message);
    const { path } = result.response as { path: string };
    expect(path).toBe('email_digest.crew.json');
    expect(parseCrewDocument(JSON.parse(readFileSync(join(workspace, path), 'utf8'))).ok).toBe(true);
  });

  it('answers bad_input with the reason when the folder holds no CrewAI project', async () => {
    const result = await host.handle('documents.importCrewai', { dir: workspace });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('bad_input');
      expect(result.error.message).toMatch(/No CrewAI project/);
    }
  });

  it('refuses a folder outside the workspace: the renderer may not make the runtime read files elsewhere', async () => {
    for (const dir of [join(fixtures, 'market_research'), '../outside', '/etc']) {
      const result = await host.handle('documents.importCrewai', { dir });
      expect(result).toMatchObject({ ok: false, error: { code: 'bad_input' } });
      if (!result.ok) expect(result.error.message).toMatch(/must be a folder inside the workspace/);
    }
  });
});

