import type { TraceSpan } from '../../../stores/runView';
import { Facts, JsonBlock, Section, TextBlock, Verdict } from './DetailBlocks';
import { eventOf } from './spanEvents';

/** A question to a person: the task review, tool approval or flow feedback asked, and the answer. */
export function HumanDetail({ span }: { span: TraceSpan }) {
  const requested = eventOf(span, 'human.requested');
  const answered = eventOf(span, 'human.answered');
  const approval = requested?.kind === 'tool_approval';
  const flow = requested?.kind === 'flow_feedback';
  const decisionTone = answered?.decision === 'deny' ? 'err' : 'ok';
  return (
    <>
      <Facts
        items={[
          ['Kind', approval ? 'tool approval' : flow ? 'flow feedback' : 'task review'],
          [flow ? 'Method' : 'Agent', requested?.agentRole],
          ['Outcomes', flow && requested?.outcomes ? requested.outcomes.join(', ') + (requested.defaultOutcome ? ` (default ${requested.defaultOutcome})` : '') : undefined],
          ['Task', requested?.taskId],
          ['Tool', requested?.tool],
          [
            'Answer',
            !answered ? (
              <Verdict tone="running">waiting for an answer</Verdict>
            ) : approval ? (
              <Verdict tone={decisionTone}>{answered.decision === 'always' ? 'always allow' : answered.decision}</Verdict>
            ) : flow ? (
              <Verdict tone="ok">{answered.outcome ? `outcome ${answered.outcome}` : answered.feedback?.trim() ? 'feedback given' : 'continued'}</Verdict>
            ) : answered.feedback?.trim() ? (
              <Verdict tone="warn">feedback given</Verdict>
            ) : (
              <Verdict tone="ok">accepted</Verdict>
            ),
          ],
        ]}
      />
      {requested && <TextBlock label={flow ? 'Message' : 'Prompt'} text={requested.prompt} />}
      {requested?.output !== undefined && (
        <Section title="Output under review">
          <TextBlock text={requested.output} />
        </Section>
      )}
      {approval && (
        <Section title="Arguments">
          <JsonBlock value={requested?.args} />
        </Section>
      )}
      {answered?.feedback?.trim() && <TextBlock label="Feedback" text={answered.feedback} tone={flow ? undefined : 'warn'} />}
    </>
  );
}
