import type { TraceSpan } from '../../../stores/runView';
import { Facts, JsonBlock, Section, TextBlock, Verdict } from './DetailBlocks';
import { readAsFact } from './readAs';
import { eventOf } from './spanEvents';

/** A tool call: arguments, result (or error, block reason, cache hit). */
export function ToolDetail({ span }: { span: TraceSpan }) {
  const started = eventOf(span, 'tool.started');
  const completed = eventOf(span, 'tool.completed');
  const cached = eventOf(span, 'tool.cached');
  const failed = eventOf(span, 'tool.failed');
  const blocked = eventOf(span, 'tool.blocked');
  const output = eventOf(span, 'tool.output');
  return (
    <>
      <Facts
        items={[
          ['Tool', started?.tool],
          ['Agent', started?.agentRole],
          ['Call id', started?.callId],
          readAsFact(started?.readAs),
          ['Outcome', completed ? <Verdict tone="ok">completed</Verdict> : cached ? <Verdict tone="running">from cache</Verdict> : failed ? <Verdict tone="err">failed</Verdict> : blocked ? <Verdict tone="warn">blocked by {blocked.by.replace('_', ' ')}</Verdict> : <Verdict tone="running">running</Verdict>],
          ['Result is the answer', completed?.resultAsAnswer ? 'yes' : undefined],
        ]}
      />
      <Section title="Arguments" testId="tool-args">
        <JsonBlock value={started?.args} />
      </Section>
      {(completed || cached) && (
        <Section title="Result" testId="tool-result">
          <TextBlock text={(completed ?? cached)!.result} json />
        </Section>
      )}
      {failed && <TextBlock label="Error" text={failed.error} tone="err" />}
      {output && (
        <Section title="Server output (stderr, not shown to the model)" testId="tool-output">
          <TextBlock text={output.text} />
        </Section>
      )}
      {blocked && <TextBlock label="Blocked" text={blocked.reason} tone="warn" />}
    </>
  );
}
