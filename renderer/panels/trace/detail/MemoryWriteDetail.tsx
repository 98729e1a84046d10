import type { TraceSpan } from '../../../stores/runView';
import '../../../styles/memory.css';
import { Facts, Section, TextBlock, Verdict } from './DetailBlocks';
import { ReadAsFact } from './readAs';
import { eventOf, eventsOf } from './spanEvents';

const POLICY_TEXT = { 'after-guardrail': 'after the guardrails accept', immediate: 'immediately (CrewAI)' } as const;
const ACTION_TONE = { insert: 'ok', update: 'running', delete: 'err', keep: 'muted' } as const;

/** One attempt's memory write: what was staged, each consolidation decision, skipped duplicates, and how it ended. */
export function MemoryWriteDetail({ span }: { span: TraceSpan }) {
  const staged = eventOf(span, 'memory.write.staged');
  const committed = eventOf(span, 'memory.write.committed');
  const discarded = eventOf(span, 'memory.write.discarded');
  const failed = eventOf(span, 'memory.write.failed');
  const decisions = eventsOf(span, 'memory.write.decision');
  const skipped = eventsOf(span, 'memory.write.skipped');
  const outcome = committed ? (
    <Verdict tone="ok">committed</Verdict>
  ) : discarded ? (
    <Verdict tone="warn">discarded</Verdict>
  ) : failed ? (
    <Verdict tone="err">failed</Verdict>
  ) : (
    <Verdict tone="running">staged</Verdict>
  );
  return (
    <>
      <Facts
        items={[
          ['Task', staged?.taskId ?? span.taskId],
          ['Agent', staged?.agentRole],
          ['Attempt', staged?.attempt ?? committed?.attempt ?? discarded?.attempt ?? failed?.attempt],
          ['Commit', staged ? POLICY_TEXT[staged.policy] : undefined],
          ['Scope', staged ? <code>{staged.scope}</code> : undefined],
          ['Extracts output', staged ? (staged.extract ? 'yes' : 'no') : undefined],
          ['Outcome', outcome],
          [
            'Written',
            committed ? `${committed.inserted} new · ${committed.updated} updated · ${committed.deleted} deleted · ${committed.skipped} skipped` : undefined,
          ],
          ['Extraction read as', committed?.readAs?.length ? <ReadAsFact readAs={committed.readAs} /> : undefined],
        ]}
      />
      {discarded && (
        <TextBlock label={`Discarded ${discarded.dropped} staged memor${discarded.dropped === 1 ? 'y' : 'ies'}`} text={discarded.reason} tone="warn" testId="memory-discarded" />
      )}
      {failed && <TextBlock label="Write failed (the task went on)" text={failed.error} tone="err" testId="memory-failed" />}
      {staged && staged.saved.length > 0 && (
        <Section title={`Saved with save_memory (${staged.saved.length})`}>
          {staged.saved.map((content, i) => (
            <TextBlock key={i} text={content} />
          ))}
        </Section>
      )}
      {decisions.length > 0 && (
        <Section title={`Decisions (${decisions.length})`} testId="memory-decisions">
          <ul className="memory-detail-list">
            {decisions.map((d) => (
              <li key={d.seq} className="memory-detail-item" data-testid="memory-decision" data-action={d.action}>
                <div className="memory-detail-head">
                  <Verdict tone={ACTION_TONE[d.action]}>{d.action}</Verdict>
                  {d.recordId && <code className="memory-detail-id">{d.recordId}</code>}
                  <span className="memory-detail-by">decided by {d.decidedBy}</span>
                </div>
                <div className="memory-detail-content">{d.content}</div>
                <div className="memory-detail-reason">{d.reason}</div>
                {d.readAs?.length ? (
                  <div className="memory-detail-reason">
                    read as <ReadAsFact readAs={d.readAs} />
                  </div>
                ) : null}
                {d.similar.length > 0 && (
                  <div className="memory-detail-similar">
                    similar:{' '}
                    {d.similar.map((s) => (
                      <span key={s.id} className="memory-detail-chip">
                        <code>{s.id}</code> {s.similarity.toFixed(2)}
                      </span>
                    ))}
                  </div>
                )}
              </li>
            ))}
          </ul>
        </Section>
      )}
      {skipped.length > 0 && (
        <Section title={`Skipped duplicates (${skipped.length})`} open={false} testId="memory-skipped">
          <ul className="memory-detail-list">
            {skipped.map((s) => (
              <li key={s.seq} className="memory-detail-item">
                <div className="memory-detail-content">{s.content}</div>
                <div className="memory-detail-reason">
                  {s.reason} — same as <code>{s.duplicateOf}</code> ({s.similarity.toFixed(2)})
                </div>
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  );
}
