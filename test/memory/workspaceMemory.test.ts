import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceSettingsSchema } from '../../shared/model/workspace';
import { EmbedderMismatch } from '../../runtime/memory/memoryErrors';
import { openWorkspaceMemory } from '../../runtime/memory/workspaceMemory';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { tempWorkspace } from '../support/crewHarness';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({ embeddingDimensions: 48 });
});
afterAll(() => server.close());

describe('the workspace memory follows crewdeck.json', () => {
  it('uses the offline embedder by default, and the configured OpenAI-compatible one when set', async () => {
    const ws = tempWorkspace('crewdeck-wsmem-');
    try {
      const offline = await openWorkspaceMemory(ws.dir, { settings: undefined, env: {} });
      expect(offline.embedder.id).toBe('hashing-v1-384');
      await offline.add([{ content: 'Offline memory', scope: '/crew/a', source: { kind: 'manual' } }]);
      offline.close();

      const settings = WorkspaceSettingsSchema.parse({
        version: 1,
        memory: { embedder: { provider: 'openai', model: 'embed-small', baseUrl: server.baseUrl, apiKeyEnv: 'EMBED_KEY' } },
      });
      // The store was built by the offline embedder: opening it with another one is refused, nothing mixed.
      await expect(openWorkspaceMemory(ws.dir, { settings, env: { EMBED_KEY: 'k' } })).rejects.toBeInstanceOf(EmbedderMismatch);

      const fresh = tempWorkspace('crewdeck-wsmem-');
      try {
        const online = await openWorkspaceMemory(fresh.dir, { settings, env: { EMBED_KEY: 'k' } });
        expect(online.embedder.id).toBe('openai:embed-small');
        expect(online.embedder.dimensions).toBe(48); // asked of the server once, before the table was made
        await online.add([{ content: 'Embedded by the server', scope: '/crew/a', source: { kind: 'manual' } }]);
        expect((await online.recall({ query: 'embedded by the server' }))[0]!.record.content).toBe('Embedded by the server');
        online.close();
        expect(server.requests.some((r) => r.path.endsWith('/embeddings') && r.headers.authorization === 'Bearer k')).toBe(true);
      } finally {
        fresh.remove();
      }
    } finally {
      ws.remove();
    }
  });

  it('names a bad embedder setting by its path', () => {
    const result = WorkspaceSettingsSchema.safeParse({ version: 1, memory: { embedder: { provider: 'openai', model: '', apiKeyEnv: 'not a name' } } });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['memory.embedder.model', 'memory.embedder.apiKeyEnv']));
  });
});
