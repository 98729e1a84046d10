import { join } from 'node:path';
import type { EmbedderSettings, WorkspaceSettings } from '../../shared/model/workspace';
import { HashingEmbedder } from './hashingEmbedder';
import { MemoryStore } from './memoryStore';
import { OpenAIEmbedder } from './openaiEmbedder';
import type { Embedder } from './types';

/** The embedder the workspace settings name (`memory.embedder`); the offline one by default. */
export async function workspaceEmbedder(settings: EmbedderSettings | undefined, env: NodeJS.ProcessEnv = process.env): Promise<Embedder> {
  if (!settings || settings.provider === 'hashing') return new HashingEmbedder();
  const embedder = new OpenAIEmbedder({ model: settings.model, baseUrl: settings.baseUrl, apiKeyEnv: settings.apiKeyEnv, dimensions: settings.dimensions, env });
  // The store records the vector size when it is created: ask the server once if the settings do not say.
  if (settings.dimensions === undefined) await embedder.resolveDimensions();
  return embedder;
}

/** The workspace's memory store at `.crewdeck/memory`, with the embedder of its settings. */
export async function openWorkspaceMemory(workspace: string, options: { settings?: WorkspaceSettings; env?: NodeJS.ProcessEnv } = {}): Promise<MemoryStore> {
  const embedder = await workspaceEmbedder(options.settings?.memory?.embedder, options.env);
  return MemoryStore.open(join(workspace, '.crewdeck', 'memory'), embedder);
}
