import { join } from 'node:path';
import { HashingEmbedder } from './hashingEmbedder';
import { MemoryStore } from './memoryStore';

/** The workspace's memory store at `.crewdeck/memory`, with the offline embedder. */
export function openWorkspaceMemory(workspace: string): Promise<MemoryStore> {
  return MemoryStore.open(join(workspace, '.crewdeck', 'memory'), new HashingEmbedder());
}
