import { join } from 'node:path';
import { HashingEmbedder } from '../memory/hashingEmbedder';
import type { Embedder } from '../memory/types';
import type { KnowledgeStore } from './knowledgeStore';

/** Where a workspace keeps its knowledge: a LanceDB database of its own, beside (not inside) memory. */
export function knowledgeDir(workspace: string): string {
  return join(workspace, '.crewdeck', 'knowledge');
}

/**
 * The workspace's knowledge store, with the offline embedder unless another is given (runs and the CLI
 * give the one the settings name, `memory.embedder`). Chunks embedded by another embedder are dropped:
 * the sources are embedded again when next ingested.
 */
export async function openWorkspaceKnowledge(workspace: string, embedder: Embedder = new HashingEmbedder()): Promise<KnowledgeStore> {
  // LanceDB is loaded only when a run (or command) opens the knowledge store.
  const { KnowledgeStore } = await import('./knowledgeStore');
  return KnowledgeStore.open(knowledgeDir(workspace), embedder, { rebuildForEmbedder: true });
}
