import type { CrewDocument, KnowledgeSource } from '../../shared/model/crew';
import { DEFAULT_KNOWLEDGE_LIMIT, DEFAULT_KNOWLEDGE_MIN_SCORE } from '../knowledge/knowledgeDefaults';
import { describeSource, sourceKey } from '../knowledge/loadSource';
import type { RunKnowledge } from '../knowledge/types';
import type { Recording } from './recording';

/** Offline, a task asks for knowledge the recorded run did not retrieve: its sources are neither read nor fetched. */
export class KnowledgeNotRecorded extends Error {
  override name = 'KnowledgeNotRecorded';
  constructor(
    readonly sources: string[],
    readonly agentRole: string,
    readonly taskId: string,
    runId: string,
    call: number,
  ) {
    super(
      `offline, knowledge source${sources.length === 1 ? '' : 's'} ${sources.join(', ')} ${sources.length === 1 ? 'is' : 'are'} not fetched or read, ` +
        `and recorded run ${runId} holds no knowledge retrieved for ${agentRole} in ${taskId} (retrieval ${call}): the document asks for more than the recording holds`,
    );
  }
}

/**
 * A crew's knowledge in an offline re-run: each task gets the chunks the recorded run put into the same
 * agent's prompt in the same task, call by call. No source is loaded (a URL is never fetched) and nothing
 * is embedded; a retrieval the recording does not hold fails the task, naming the sources (URLs first).
 */
export function recordedKnowledge(recording: Recording, doc: CrewDocument): RunKnowledge | undefined {
  const crewSources = doc.knowledge ?? [];
  const agents = doc.agents.filter((a) => (a.knowledge ?? []).length > 0);
  if (crewSources.length === 0 && agents.length === 0) return undefined;
  const byKey = new Map<string, KnowledgeSource>();
  const keysOf = (sources: KnowledgeSource[], owner: string) =>
    sources.map((source) => {
      const k = sourceKey(source, owner);
      byKey.set(k, source);
      return k;
    });
  const crewKeys = [...new Set(keysOf(crewSources, doc.id))];
  const agentKeys = new Map(agents.map((a) => [a.id, [...new Set(keysOf(a.knowledge ?? [], `${doc.id}/${a.id}`))]]));
  const settings = doc.knowledgeSettings ?? {};
  return {
    store: {
      async search(query, asker) {
        const found = recording.knowledgeFor(asker.taskId, asker.agentRole);
        if (found) return found.chunks.map((c, i) => ({ id: c.id, sourceKey: '', sourceName: c.source, chunkIndex: i, content: c.content, score: c.score }));
        const sources = query.sourceKeys.map((k) => byKey.get(k)).filter((s) => s !== undefined);
        sources.sort((a, b) => Number(b.type === 'url') - Number(a.type === 'url'));
        const call = recording.knowledgeCalls(asker.taskId, asker.agentRole);
        throw new KnowledgeNotRecorded(sources.map(describeSource), asker.agentRole, asker.taskId, recording.runId, call);
      },
    },
    crewKeys,
    agentKeys,
    limit: settings.limit ?? DEFAULT_KNOWLEDGE_LIMIT,
    minScore: settings.minScore ?? DEFAULT_KNOWLEDGE_MIN_SCORE,
    ingested: [],
    close: () => {},
  };
}
