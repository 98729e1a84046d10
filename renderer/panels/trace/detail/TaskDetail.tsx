import type { TraceSpan } from '../../../stores/runView';
import { Facts, Section, TextBlock, Verdict } from './DetailBlocks';
import { readAsFact } from './readAs';
import { eventOf, eventsOf } from './spanEvents';
import { RecalledMemories, RetrievedKnowledge } from './TaskMemoryDetail';
import { UsageFacts } from './UsageFacts';

/** A task: what it asked, the context, memories and knowledge it got, guardrail retries, and its output or error. */
export function TaskDetail({ span }: { span: TraceSpan }) {
  const started = eventOf(span, 'task.started');
  const completed = eventOf(span, 'task.completed');
  const failed = eventOf(span, 'task.failed');
  const skipped = eventOf(span, 'task.skipped');
  const retries = eventsOf(span, 'task.retrying');
  return (
    <>
      <Facts
        items={[
          ['Task id', span.taskId],
          ['Name', started?.taskName],
          ['Position', started ? `#${started.index + 1}` : skipped ? `#${skipped.index + 1}` : undefined],
          ['Performed by', started?.agentRole ?? completed?.agentRole],
          ['Async', started?.async ? 'yes' : undefined],
          ['Output file', completed?.outputFile],
          ['Restored from', completed?.restoredFrom ?? (completed && !started ? 'an earlier run' : undefined)],
          ['Retries', retries[0] ? `${retries.length} of ${retries[0].maxRetries}` : undefined],
          readAsFact(completed?.readAs),
        ]}
      />
      {skipped && <TextBlock label="Skipped" text={skipped.reason} tone="warn" />}
      {started && (
        <Section title="Description">
          <TextBlock text={started.description} />
          <TextBlock label="Expected output" text={started.expectedOutput} />
        </Section>
      )}
      {started?.context && (
        <Section title="Context" open={false}>
          <TextBlock text={started.context} />
        </Section>
      )}
      <RecalledMemories span={span} />
      <RetrievedKnowledge span={span} />
      {retries.map((r) => (
        <Section key={r.seq} title={<><Verdict tone="warn">retry {r.attempt - 1}/{r.maxRetries}</Verdict> {r.reason}</>} open={false}>
          <TextBlock label="Rejected output" text={r.rejectedOutput} />
        </Section>
      ))}
      {completed && (
        <Section title="Output" testId="task-output">
          <TextBlock text={completed.raw} />
          {completed.json !== undefined && <TextBlock label="JSON" text={JSON.stringify(completed.json)} json />}
        </Section>
      )}
      {failed && <TextBlock label={failed.errorName} text={failed.error} tone="err" />}
      {completed && (
        <Section title="Usage" open={false}>
          <UsageFacts usage={completed.tokenUsage} />
        </Section>
      )}
    </>
  );
}
