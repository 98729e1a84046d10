import '../../../styles/flow-run.css';
import type { RunView, TraceSpan } from '../../../stores/runView';
import { formatDuration } from '../../formatTime';
import { Facts, JsonBlock, Section, TextBlock, Verdict } from './DetailBlocks';
import { stateBefore, stateChanges, stateValue } from './flowStateDiff';
import { readAsFact } from './readAs';
import { eventOf } from './spanEvents';

/** A flow method call: what triggered it, its input and output, the route it chose and why, and the state it left. */
export function MethodDetail({ span, view }: { span: TraceSpan; view: RunView }) {
  const started = eventOf(span, 'flow.method.started');
  const routed = eventOf(span, 'flow.route');
  const completed = eventOf(span, 'flow.method.completed');
  const failed = eventOf(span, 'flow.method.failed');
  const route = routed?.route ?? completed?.route;
  const before = completed ? stateBefore(view, completed) : undefined;
  const changes = completed ? stateChanges(before, completed.state, completed.changed) : [];
  const waiting = view.pausedFor?.methodId === started?.methodId && view.status === 'paused' && span.end === undefined;
  return (
    <>
      <Facts
        items={[
          ['Method id', started?.methodId ?? completed?.methodId ?? failed?.methodId],
          ['Body', started?.bodyType],
          ['Call', started ? callOfMethod(view, started.methodId, started.seq) : undefined],
          ['Trigger', started?.trigger],
          ['Triggered by', started?.triggeredBy],
          ['Route', route ? <Verdict tone="ok">{route}</Verdict> : undefined],
          ['Working time', workingTime(span, completed?.durationMs ?? failed?.durationMs)],
          ['Status', waiting ? <Verdict tone="running">waiting for feedback</Verdict> : undefined],
        ]}
      />
      {started?.input !== undefined && started.input !== '' && (
        <Section title="Input" testId="method-input">
          <TextBlock text={started.input} />
        </Section>
      )}
      {routed && (
        <Section title="Route decision" testId="method-route">
          <TextBlock label={`→ ${routed.route}`} text={routed.reason} />
          <Facts items={[readAsFact(routed.readAs)]} />
          {routed.rawReply !== undefined && <TextBlock label="The model's reply" text={routed.rawReply} testId="method-route-reply" />}
        </Section>
      )}
      {completed && (
        <Section title="Output" testId="method-output">
          <TextBlock text={completed.output} />
        </Section>
      )}
      {failed && <TextBlock label={failed.errorName || 'Error'} text={failed.error} tone="err" testId="method-error" />}
      {completed && (
        <Section title={changes.length ? `State changes (${changes.length})` : 'State changes'} testId="method-state-diff">
          {changes.length === 0 ? (
            <div className="detail-empty">This call left the state as it was.</div>
          ) : (
            <table className="state-diff">
              <tbody>
                {changes.map((c) => (
                  <tr key={c.field} data-how={c.how} data-testid="state-change">
                    <th scope="row">{c.field}</th>
                    <td className="state-diff-before">{c.how === 'added' ? <span className="state-diff-new">new</span> : stateValue(c.before)}</td>
                    <td className="state-diff-arrow" aria-hidden>
                      →
                    </td>
                    <td className="state-diff-after">{c.how === 'removed' ? <span className="state-diff-gone">removed</span> : stateValue(c.after)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Section>
      )}
      {completed && (
        <Section title="State after" open={false} testId="method-state">
          <JsonBlock value={completed.state} />
        </Section>
      )}
    </>
  );
}

/** "2 of 3": which call of its method this span is (a loop through routes calls a method again). */
function callOfMethod(view: RunView, methodId: string, seq: number): string | undefined {
  let index = 0;
  let total = 0;
  for (const span of view.spans.values()) {
    const e = span.kind === 'method' ? span.events[0] : undefined;
    if (e?.type !== 'flow.method.started' || e.methodId !== methodId) continue;
    total += 1;
    if (e.seq <= seq) index += 1;
  }
  return total > 1 ? `${index} of ${total}` : undefined;
}

/** The method's own durationMs, when it differs from the span's wall-clock time (a pause for feedback). */
function workingTime(span: TraceSpan, durationMs: number | undefined): string | undefined {
  if (durationMs === undefined || span.durationMs === undefined || span.durationMs - durationMs < 1000) return undefined;
  return `${formatDuration(durationMs)} (the rest waiting for feedback)`;
}
