import type { IngestResult, KnowledgeStore } from './knowledgeStore';

/** A crew's knowledge, ingested and ready for the run's tasks (made by prepareRunKnowledge). */
export interface RunKnowledge {
  store: KnowledgeStore;
  /** Sources every agent searches. */
  crewKeys: string[];
  /** Each agent's own sources, by agent id. */
  agentKeys: Map<string, string[]>;
  limit: number;
  minScore: number;
  /** What ingestion did with each source (unchanged sources were not re-read into the store). */
  ingested: IngestResult[];
  close(): void;
}
