import type { CrewDocument, KnowledgeSource } from '../../shared/model/crew';
import type { RunContext } from '../agent/runContext';
import type { Span } from '../events/span';
import type { Embedder } from '../memory/types';
import type { IngestResult } from './knowledgeStore';
import { DEFAULT_KNOWLEDGE_LIMIT, DEFAULT_KNOWLEDGE_MIN_SCORE } from './knowledgeDefaults';
import { loadSource } from './loadSource';
import type { RunKnowledge } from './types';
import { openWorkspaceKnowledge } from './workspaceKnowledge';

export type { RunKnowledge } from './types';


export const KNOWLEDGE_HEADING = 'Relevant knowledge from your sources (use it if it helps; cite the source)';

/**
 * Ingests every source of the crew and its agents (unchanged ones are a no-op) and returns what
 * retrieval needs, or undefined when the crew declares no sources. A source that cannot be read throws
 * a KnowledgeSourceError naming it.
 */
export async function prepareRunKnowledge(
  workspace: string,
  doc: CrewDocument,
  options: { embedder?: () => Promise<Embedder>; signal?: AbortSignal } = {},
): Promise<RunKnowledge | undefined> {
  const crewSources = doc.knowledge ?? [];
  const agentSources = doc.agents.filter((a) => (a.knowledge ?? []).length > 0);
  if (crewSources.length === 0 && agentSources.length === 0) return undefined;
  const settings = doc.knowledgeSettings ?? {};
  const store = await openWorkspaceKnowledge(workspace, await options.embedder?.());
  try {
    const ingested = new Map<string, IngestResult>();
    const ingestAll = async (sources: KnowledgeSource[], owner: string): Promise<string[]> => {
      const keys: string[] = [];
      for (const source of sources) {
        const loaded = await loadSource(workspace, source, { owner, signal: options.signal });
        if (!ingested.has(loaded.key)) {
          ingested.set(loaded.key, await store.ingest(loaded, { size: settings.chunkSize, overlap: settings.chunkOverlap }));
        }
        if (!keys.includes(loaded.key)) keys.push(loaded.key);
      }
      return keys;
    };
    const crewKeys = await ingestAll(crewSources, doc.id);
    const agentKeys = new Map<string, string[]>();
    for (const agent of agentSources) agentKeys.set(agent.id, await ingestAll(agent.knowledge ?? [], `${doc.id}/${agent.id}`));
    return {
      store: { search: (query) => store.search(query) },
      crewKeys,
      agentKeys,
      limit: settings.limit ?? DEFAULT_KNOWLEDGE_LIMIT,
      minScore: settings.minScore ?? DEFAULT_KNOWLEDGE_MIN_SCORE,
      ingested: [...ingested.values()],
      close: () => store.close(),
    };
  } catch (error) {
    store.close();
    throw error;
  }
}

/**
 * Before a task: search the crew's and the agent's sources by the task description and return the
 * matching chunks as one prompt block, each prefixed with its source name. `knowledge.retrieved` (on
 * the task span) lists the chunks, so the trace shows which knowledge reached which prompt.
 */
export async function retrieveKnowledgeForTask(
  ctx: RunContext,
  span: Span,
  task: { id: string; description: string },
  agent: { id: string; role: string },
): Promise<{ heading: string; body: string }[]> {
  const knowledge = ctx.knowledge;
  if (!knowledge) return [];
  const sourceKeys = [...new Set([...knowledge.crewKeys, ...(knowledge.agentKeys.get(agent.id) ?? [])])];
  if (sourceKeys.length === 0) return [];
  const matches = await knowledge.store.search({ query: task.description, sourceKeys, limit: knowledge.limit, minScore: knowledge.minScore }, { taskId: task.id, agentRole: agent.role });
  span.emit({
    type: 'knowledge.retrieved',
    taskId: task.id,
    agentRole: agent.role,
    query: task.description,
    chunks: matches.map((m) => ({ id: m.id, source: m.sourceName, score: Number(m.score.toFixed(4)), content: m.content })),
  });
  if (matches.length === 0) return [];
  return [{ heading: KNOWLEDGE_HEADING, body: matches.map((m) => `[Source: ${m.sourceName}] ${m.content}`).join('\n\n') }];
}
