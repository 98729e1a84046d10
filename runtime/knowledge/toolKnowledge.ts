import type { Embedder } from '../memory/types';
import { ToolError, type SearchableText, type SearchSettings, type ToolKnowledge } from '../tools/tool';
import { KnowledgeSourceError } from './errors';
import { DEFAULT_KNOWLEDGE_LIMIT, DEFAULT_KNOWLEDGE_MIN_SCORE } from './knowledgeDefaults';
import { loadSource, type LoadedSource } from './loadSource';
import { downloadPage, readablePage, selectedText } from './pageText';
import { openWorkspaceKnowledge } from './workspaceKnowledge';

/**
 * Search tools' chunks: smaller than a crew's knowledge (4,000), so the chunk that answers comes back
 * on its own; kept under their own `tool:` source keys, so a crew's knowledge of the same file is not
 * re-chunked back and forth.
 */
export const TOOL_CHUNKING = { size: 1200, overlap: 120 };

/**
 * The knowledge layer as the page and file tools use it (ToolServices.knowledge): pages through the
 * guarded fetch, files read as knowledge sources, and search in the workspace's knowledge store with
 * the workspace's embedder (the offline one without `embedder`).
 */
export function createToolKnowledge(workspace: string, embedder?: () => Promise<Embedder>): ToolKnowledge {
  const search = async (sources: readonly LoadedSource[], query: string, settings: SearchSettings, signal: AbortSignal): Promise<string> => {
    const store = await openWorkspaceKnowledge(workspace, embedder ? await embedder() : undefined);
    try {
      for (const source of sources) {
        signal.throwIfAborted();
        // An unchanged source (same content hash, same chunking) is neither embedded nor written again.
        await store.ingest(source, TOOL_CHUNKING);
      }
      const matches = await store.search({
        query,
        sourceKeys: sources.map((s) => s.key),
        limit: settings.limit ?? DEFAULT_KNOWLEDGE_LIMIT,
        minScore: settings.minScore ?? DEFAULT_KNOWLEDGE_MIN_SCORE,
      });
      if (matches.length === 0) return `No passage of ${names(sources)} matches "${query}".`;
      return `Relevant Content:\n\n${matches.map((m) => `[Source: ${m.sourceName}] ${m.content}`).join('\n\n')}`;
    } finally {
      store.close();
    }
  };
  return {
    fetchPage: (url, options) => downloadPage(url, { ...options, workspace }),
    readable: readablePage,
    select: selectedText,
    async searchFiles(paths, query, settings, signal) {
      const sources: LoadedSource[] = [];
      const skipped: string[] = [];
      for (const path of paths) {
        try {
          const loaded = await loadSource(workspace, { type: 'file', path }, { signal });
          sources.push({ ...loaded, key: `tool:file:${path}`, name: path });
        } catch (error) {
          if (!(error instanceof KnowledgeSourceError)) throw error;
          if (paths.length === 1) throw new ToolError(error.message);
          skipped.push(`${path} (${error.message.replace(/^knowledge source "[^"]*": /, '')})`);
        }
      }
      if (sources.length === 0) throw new ToolError(`no file could be read: ${skipped.join('; ')}`);
      return { found: await search(sources, query, settings, signal), skipped };
    },
    searchTexts: (texts: readonly SearchableText[], query, settings, signal) => search(texts.map((t) => ({ ...t, type: 'url' as const })), query, settings, signal),
  };
}

function names(sources: readonly { name: string }[]): string {
  const shown = sources.slice(0, 3).map((s) => s.name);
  return sources.length > 3 ? `${shown.join(', ')} and ${sources.length - 3} more` : shown.join(', ');
}
