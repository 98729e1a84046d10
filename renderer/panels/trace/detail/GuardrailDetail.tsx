import type { TraceSpan } from '../../../stores/runView';
import { Facts, TextBlock, Verdict } from './DetailBlocks';
import { readAsFact } from './readAs';
import { eventOf } from './spanEvents';

/** One guardrail check: type, attempt, verdict and the reason it failed. */
export function GuardrailDetail({ span }: { span: TraceSpan }) {
  const started = eventOf(span, 'guardrail.started');
  const passed = eventOf(span, 'guardrail.passed');
  const failed = eventOf(span, 'guardrail.failed');
  return (
    <>
      <Facts
        items={[
          ['Guardrail', started?.index === -1 ? 'output format (JSON schema)' : started?.guardrailType],
          ['Position', started && started.index >= 0 ? `#${started.index + 1}` : undefined],
          ['Task', started?.taskId],
          ['Attempt', started?.attempt],
          [
            'Verdict',
            passed ? <Verdict tone="ok">{passed.replaced ? 'passed, output replaced' : 'passed'}</Verdict> : failed ? <Verdict tone="err">failed</Verdict> : <Verdict tone="running">checking</Verdict>,
          ],
          readAsFact(passed?.readAs ?? failed?.readAs),
        ]}
      />
      {failed && <TextBlock label="Reason" text={failed.reason} tone="err" testId="guardrail-reason" />}
    </>
  );
}
