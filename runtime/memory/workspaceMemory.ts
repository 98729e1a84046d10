import { join } from 'node:path';
import type { EmbedderSettings, WorkspaceSettings } from '../../shared/model/workspace';
import { HashingEmbedder } from './hashingEmbedder';
import type { MemoryStore } from './memoryStore';
import { OpenAIEmbedder } from './openaiEmbedder';
import type { Embedder } from './types';
import type { PriceTable } from '../../shared/model/prices';
import { embeddingMeter } from './embeddingMeter';
import { embedderHeldPart } from '../trust/heldParts';
import { userModelServers } from '../trust/userModelServers';
import type { TrustGate } from '../trust/workspaceTrust';

/**
 * The embedder the workspace settings name (`memory.embedder`); the offline one by default. An
 * OpenAI-compatible one meters its requests into the run they are made for, priced from `prices`.
 */
export async function workspaceEmbedder(settings: EmbedderSettings | undefined, env: NodeJS.ProcessEnv = process.env, trust?: TrustGate, prices?: PriceTable): Promise<Embedder> {
  if (!settings || settings.provider === 'hashing') return new HashingEmbedder();
  // An embedder that sends a key, or texts to embed, to a baseUrl of its own (not one of the user's
  // model servers) waits for workspace trust.
  const held = embedderHeldPart(settings, userModelServers(process.env, env.OPENAI_BASE_URL));
  if (held) trust?.require(held);
  const embedder = new OpenAIEmbedder({ model: settings.model, baseUrl: settings.baseUrl, apiKeyEnv: settings.apiKeyEnv, dimensions: settings.dimensions, env, observer: embeddingMeter(prices) });
  // The store records the vector size when it is created: ask the server once if the settings do not say.
  if (settings.dimensions === undefined) await embedder.resolveDimensions();
  return embedder;
}

/**
 * What opening the workspace memory needs: the workspace's `crewdeck.json` (undefined when it has none)
 * and the environment the embedder's key is read from. Both required, so no caller silently opens the
 * store with a different embedder than the one the workspace names.
 */
export interface WorkspaceMemoryOptions {
  settings: WorkspaceSettings | undefined;
  env: NodeJS.ProcessEnv;
  /** Workspace trust, asked before an embedder that sends a key or texts to its own baseUrl is used. */
  trust?: TrustGate;
}

/** The workspace's memory store at `.crewdeck/memory`, with the embedder of its settings. */
export async function openWorkspaceMemory(workspace: string, options: WorkspaceMemoryOptions): Promise<MemoryStore> {
  const embedder = await workspaceEmbedder(options.settings?.memory?.embedder, options.env, options.trust, options.settings?.prices);
  // LanceDB is loaded only when a run (or command) opens the memory store.
  const { MemoryStore } = await import('./memoryStore');
  return MemoryStore.open(join(workspace, '.crewdeck', 'memory'), embedder);
}
