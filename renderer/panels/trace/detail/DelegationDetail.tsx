import type { TraceSpan } from '../../../stores/runView';
import { Facts, Section, TextBlock, Verdict } from './DetailBlocks';
import { eventOf } from './spanEvents';

/** Work handed from a manager to a coworker: who, what, with which context, and what came back. */
export function DelegationDetail({ span }: { span: TraceSpan }) {
  const started = eventOf(span, 'delegation.started');
  const completed = eventOf(span, 'delegation.completed');
  const failed = eventOf(span, 'delegation.failed');
  const kind = (started ?? completed ?? failed)?.kind;
  return (
    <>
      <Facts
        items={[
          ['Kind', kind === 'ask' ? 'ask question' : 'delegate work'],
          ['Manager', (started ?? completed ?? failed)?.manager],
          ['Coworker', started?.coworker ?? completed?.coworker],
          ['Requested as', started && started.requestedCoworker !== started.coworker ? started.requestedCoworker : failed?.requestedCoworker],
          ['Outcome', completed ? <Verdict tone="ok">completed</Verdict> : failed ? <Verdict tone="err">failed</Verdict> : <Verdict tone="running">working</Verdict>],
        ]}
      />
      {started && (
        <Section title={kind === 'ask' ? 'Question' : 'Task'} testId="delegation-task">
          <TextBlock text={started.task} />
        </Section>
      )}
      {started && started.context && (
        <Section title="Context">
          <TextBlock text={started.context} />
        </Section>
      )}
      {completed && (
        <Section title="Result" testId="delegation-result">
          <TextBlock text={completed.result} />
        </Section>
      )}
      {failed && (
        <>
          <TextBlock label="Error" text={failed.error} tone="err" />
          {failed.validRoles.length > 0 && <Facts items={[['Valid coworkers', failed.validRoles.join(', ')]]} />}
        </>
      )}
    </>
  );
}
