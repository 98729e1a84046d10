import type { TraceSpan } from '../../../stores/runView';
import { Facts, Section, TextBlock } from './DetailBlocks';
import { readAsFact } from './readAs';
import { eventOf } from './spanEvents';
import { UsageFacts } from './UsageFacts';

/** One agent execution: model, tool mode, tools, who asked, and its answer. */
export function AgentDetail({ span }: { span: TraceSpan }) {
  const started = eventOf(span, 'agent.started');
  const completed = eventOf(span, 'agent.completed');
  const failed = eventOf(span, 'agent.failed');
  return (
    <>
      <Facts
        items={[
          ['Role', started?.role],
          ['Agent id', started?.agentId],
          ['Model', started?.model],
          ['Tool mode', started?.mode],
          ['Tools', started?.tools.length ? started.tools.join(', ') : undefined],
          ['Asked by', started?.delegatedBy],
          [
            'Suggestions',
            started?.suggestions ? (
              <span data-testid="agent-suggestions">
                version {started.suggestions.version} ({started.suggestions.count} instruction{started.suggestions.count === 1 ? '' : 's'} from training)
              </span>
            ) : undefined,
          ],
          ['Iterations', completed?.iterations],
          readAsFact(completed?.readAs),
        ]}
      />
      {completed && (
        <Section title="Answer" testId="agent-output">
          <TextBlock text={completed.output} />
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
