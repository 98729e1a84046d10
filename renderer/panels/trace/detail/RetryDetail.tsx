import type { TraceSpan } from '../../../stores/runView';
import { Facts, Section, TextBlock } from './DetailBlocks';
import { eventOf } from './spanEvents';

/** A guardrail retry: why the output was rejected, and the output itself. */
export function RetryDetail({ span }: { span: TraceSpan }) {
  const retry = eventOf(span, 'task.retrying');
  if (!retry) return null;
  return (
    <>
      <Facts
        items={[
          ['Task', retry.taskId],
          ['Attempt', `${retry.attempt} (retry ${retry.attempt - 1} of ${retry.maxRetries})`],
        ]}
      />
      <TextBlock label="Reason" text={retry.reason} tone="warn" testId="retry-reason" />
      <Section title="Rejected output">
        <TextBlock text={retry.rejectedOutput} />
      </Section>
    </>
  );
}
