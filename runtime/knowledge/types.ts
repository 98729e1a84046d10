import type { IngestResult, KnowledgeMatch, KnowledgeQuery } from './knowledgeStore';

/** Where a task's knowledge is found: the workspace's store, or (offline) the recorded run. */
export interface KnowledgeSearch {
  search(query: KnowledgeQuery, asker: { taskId: string; agentRole: string }): Promise<KnowledgeMatch[]>;
}

/** A crew's knowledge, ingested and ready for the run's tasks (made by prepareRunKnowledge, or recordedKnowledge offline). */
export interface RunKnowledge {
  store: KnowledgeSearch;
  /** Sources every agent searches. */
  crewKeys: string[];
  /** Each agent's own sources, by agent id. */
  agentKeys: Map<string, string[]>;
  limit: number;
  minScore: number;
  /** What ingestion did with each source (unchanged sources were not re-read into the store; none offline). */
  ingested: IngestResult[];
  close(): void;
}
