import { replayStart } from '../../../../shared/events';
import type { RunView } from '../../../stores/runView';
import { formatDuration } from '../../formatTime';
import { Facts, JsonBlock, Section, TextBlock } from './DetailBlocks';
import { FlowMethodsSummary } from './FlowMethodsSummary';
import { UsageFacts } from './UsageFacts';

/** The run itself: crew (or flow, with its methods and final state), inputs, replay link, output or error, totals. */
export function RunDetail({ view }: { view: RunView }) {
  return (
    <>
      <Facts
        items={[
          ['Run id', <code key="id">{view.runId}</code>],
          [view.process === 'flow' ? 'Flow' : 'Crew', view.documentName],
          ['Process', view.process],
          ['Started', view.startedAt ? new Date(view.startedAt).toLocaleString() : undefined],
          ['Duration', view.durationMs !== undefined ? formatDuration(view.durationMs) : undefined],
          ['Replay of', view.replayOf ? `${view.replayOf.runId} from ${replayStart(view.replayOf)}` : undefined],
          ['Events', view.eventCount.toLocaleString('en-US')],
          ['Waiting for', view.pausedFor ? `${view.pausedFor.reason === 'budget' ? 'a higher budget, at' : view.pausedFor.reason === 'human' ? 'a person, in' : 'feedback on'} ${view.methods[view.pausedFor.methodId]?.name ?? view.pausedFor.methodId}` : undefined],
        ]}
      />
      {view.process === 'flow' && <FlowMethodsSummary view={view} />}
      {Object.keys(view.inputs).length > 0 && (
        <Section title="Inputs">
          <JsonBlock value={view.inputs} />
        </Section>
      )}
      {view.output !== undefined && (
        <Section title="Output">
          <TextBlock text={view.output} />
        </Section>
      )}
      {view.flowState !== undefined && (
        <Section title={view.status === 'completed' ? 'Final state' : 'State'} testId="flow-final-state">
          <JsonBlock value={view.flowState} />
        </Section>
      )}
      {view.error && <TextBlock label={view.status === 'cancelled' ? 'Cancelled' : 'Error'} text={view.error} tone={view.status === 'cancelled' ? 'warn' : 'err'} />}
      <Section title="Usage">
        <UsageFacts usage={view.tokenUsage} />
      </Section>
    </>
  );
}
