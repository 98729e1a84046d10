import type { TraceSpan } from '../../../stores/runView';
import { useMemoryStore } from '../../../stores/memoryStore';
import { useUiStore } from '../../../stores/uiStore';
import '../../../styles/memory.css';
import { Section } from './DetailBlocks';
import { eventsOf } from './spanEvents';

/** Opens the memory browser searching for a recalled memory's content (it comes up first). */
function showInMemoryBrowser(content: string): void {
  useUiStore.getState().setView('memory');
  void useMemoryStore.getState().setQuery(content.slice(0, 2000));
}

/** The memories recall put into the task's prompt, with score and reasons (SPEC §5). */
export function RecalledMemories({ span }: { span: TraceSpan }) {
  const recalls = eventsOf(span, 'memory.recall');
  const records = recalls.flatMap((r) => r.records.map((record) => ({ ...record, scope: r.scope, seq: r.seq })));
  if (recalls.length === 0) return null;
  return (
    <Section title={`Memories recalled into the prompt (${records.length})`} testId="task-recalled-memories">
      {records.length === 0 ? (
        <div className="detail-muted">Recall found nothing in {recalls[0]?.scope}.</div>
      ) : (
        <ul className="memory-detail-list">
          {records.map((r) => (
            <li key={`${r.seq}:${r.id}`} className="memory-detail-item" data-testid="recalled-memory" data-memory-id={r.id}>
              <div className="memory-detail-head">
                <span className="memory-detail-score" title="Recall score">
                  {r.score.toFixed(2)}
                </span>
                <button className="memory-detail-link" title="Show in the memory browser" data-testid="recalled-memory-open" onClick={() => showInMemoryBrowser(r.content)}>
                  {r.id}
                </button>
              </div>
              <div className="memory-detail-content">{r.content}</div>
              {r.reasons.length > 0 && <div className="memory-detail-reason">{r.reasons.join(' · ')}</div>}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** Knowledge chunks added to the task's prompt, with their sources and scores. */
export function RetrievedKnowledge({ span }: { span: TraceSpan }) {
  const retrievals = eventsOf(span, 'knowledge.retrieved');
  const chunks = retrievals.flatMap((r) => r.chunks.map((c) => ({ ...c, seq: r.seq })));
  if (retrievals.length === 0) return null;
  return (
    <Section title={`Knowledge retrieved (${chunks.length})`} testId="task-retrieved-knowledge">
      {chunks.length === 0 ? (
        <div className="detail-muted">No knowledge matched the task.</div>
      ) : (
        <ul className="memory-detail-list">
          {chunks.map((c) => (
            <li key={`${c.seq}:${c.id}`} className="memory-detail-item" data-testid="knowledge-chunk">
              <div className="memory-detail-head">
                <span className="memory-detail-score" title="Similarity">
                  {c.score.toFixed(2)}
                </span>
                <span className="memory-detail-source">{c.source}</span>
              </div>
              <div className="memory-detail-content" data-excerpt="true" title={c.content}>
                {c.content.length > 600 ? `${c.content.slice(0, 600)}…` : c.content}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
