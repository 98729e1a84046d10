import type { TraceSpan } from '../../../stores/runView';
import { Facts, TextBlock } from './DetailBlocks';
import { eventOf } from './spanEvents';

/** One item of a for_each method: which item, its status, and its output or error. */
export function ItemDetail({ span }: { span: TraceSpan }) {
  const started = eventOf(span, 'flow.item.started');
  const completed = eventOf(span, 'flow.item.completed');
  const failed = eventOf(span, 'flow.item.failed');
  const paused = eventOf(span, 'flow.item.paused');
  const head = started ?? completed ?? failed ?? paused;
  if (!head) return null;
  return (
    <>
      <Facts
        items={[
          ['Method', head.methodName],
          ['Item', `${head.index + 1} of ${head.total}`],
          ['Status', completed ? (completed.restoredFrom ? 'completed earlier (restored from the checkpoint, not run again)' : 'completed') : failed ? 'failed' : paused ? 'paused at the run\'s budget (it runs again when the run resumes)' : 'running'],
        ]}
      />
      {started && <TextBlock label="Item" text={started.item} testId="item-value" />}
      {completed && <TextBlock label="Output" text={completed.output} tone="ok" testId="item-output" />}
      {failed && <TextBlock label="Error" text={failed.error} tone="err" testId="item-error" />}
    </>
  );
}
