import type { TraceSpan } from '../../../stores/runView';
import { Facts, Section, TextBlock } from './DetailBlocks';
import { readAsFact } from './readAs';
import { eventOf } from './spanEvents';

/** The planner's step plan per task. */
export function PlanningDetail({ span }: { span: TraceSpan }) {
  const started = eventOf(span, 'planning.started');
  const completed = eventOf(span, 'planning.completed');
  const failed = eventOf(span, 'planning.failed');
  return (
    <>
      <Facts items={[['Model', started?.model], readAsFact(completed?.readAs)]} />
      {completed &&
        Object.entries(completed.plans).map(([taskId, plan]) => (
          <Section key={taskId} title={`Plan for ${taskId}`}>
            <TextBlock text={plan} />
          </Section>
        ))}
      {completed && Object.keys(completed.plans).length === 0 && <div className="detail-muted">The planner's reply could not be read; tasks run unchanged.</div>}
      {failed && <TextBlock label="Error" text={failed.error} tone="err" />}
    </>
  );
}
