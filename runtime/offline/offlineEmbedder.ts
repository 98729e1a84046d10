import type { EmbedderSettings } from '../../shared/model/workspace';
import { HashingEmbedder } from '../memory/hashingEmbedder';
import type { Embedder } from '../memory/types';

/** Offline, something asked for the configured OpenAI-compatible embedder: it is never called. */
export class OfflineEmbedderRefused extends Error {
  override name = 'OfflineEmbedderRefused';
  constructor(model: string) {
    super(`offline, the embedder "openai:${model}" (crewdeck.json memory.embedder) is not called: what it would embed must come from the recording`);
  }
}

/**
 * The embedder of an offline re-run: the offline one when the workspace names no other; otherwise a
 * refusal (rejected before any store is opened with it, so a store built by the configured embedder is
 * never rebuilt for another). Knowledge, memory recall and the search tools answer from the recording.
 */
export async function offlineEmbedder(settings: EmbedderSettings | undefined): Promise<Embedder> {
  if (!settings || settings.provider === 'hashing') return new HashingEmbedder();
  throw new OfflineEmbedderRefused(settings.model);
}
