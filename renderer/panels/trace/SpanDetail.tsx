import type { ComponentType } from 'react';
import { usePanelLayoutStore } from '../../stores/panelLayoutStore';
import type { RunView, SpanKind, TraceSpan } from '../../stores/runView';
import { formatDuration } from '../formatTime';
import { AgentDetail } from './detail/AgentDetail';
import { DelegationDetail } from './detail/DelegationDetail';
import { Section, TextBlock } from './detail/DetailBlocks';
import { GuardrailDetail } from './detail/GuardrailDetail';
import { HumanDetail } from './detail/HumanDetail';
import { ItemDetail } from './detail/ItemDetail';
import { LlmDetail } from './detail/LlmDetail';
import { MemoryWriteDetail } from './detail/MemoryWriteDetail';
import { MethodDetail } from './detail/MethodDetail';
import { PlanningDetail } from './detail/PlanningDetail';
import { RetryDetail } from './detail/RetryDetail';
import { RunDetail } from './detail/RunDetail';
import { TaskDetail } from './detail/TaskDetail';
import { ToolDetail } from './detail/ToolDetail';
import { formatTokens } from './formatCount';
import { SPAN_KIND_LABEL, SpanIcon } from './SpanIcon';

type DetailProps = { span: TraceSpan; view: RunView };

const DETAILS = {
  run: ({ view }) => <RunDetail view={view} />,
  planning: PlanningDetail,
  method: MethodDetail,
  item: ItemDetail,
  task: TaskDetail,
  agent: AgentDetail,
  llm: LlmDetail,
  tool: ToolDetail,
  delegation: DelegationDetail,
  guardrail: GuardrailDetail,
  human: HumanDetail,
  retry: RetryDetail,
  memory: MemoryWriteDetail,
} satisfies Record<SpanKind, ComponentType<DetailProps>>;

/** Everything known about the selected span. */
export function SpanDetail({ span, view, onClose }: DetailProps & { onClose(): void }) {
  const Detail: ComponentType<DetailProps> = DETAILS[span.kind];
  const maximised = usePanelLayoutStore((s) => s.detailMaximised);
  const duration = span.durationMs ?? (span.end !== undefined ? span.end - span.start : undefined);
  return (
    <aside className="span-detail" aria-label="Span details" data-testid="span-detail" data-kind={span.kind}>
      <header className="span-detail-head">
        <SpanIcon kind={span.kind} />
        <div className="span-detail-title">
          <div className="span-detail-label">{span.label}</div>
          <div className="span-detail-sub">
            {SPAN_KIND_LABEL[span.kind]}
            {span.sublabel ? ` · ${span.sublabel}` : ''}
          </div>
        </div>
        <button
          className="btn ghost small span-detail-maximise"
          aria-pressed={maximised}
          data-testid="span-detail-maximise"
          title={maximised ? 'Back to the trace beside the canvas' : 'Give the details the whole window (long prompts)'}
          onClick={() => usePanelLayoutStore.getState().setDetailMaximised(!maximised)}
        >
          {maximised ? 'Restore' : 'Maximise'}
        </button>
        <button className="btn ghost span-detail-close" aria-label="Close details" onClick={onClose}>
          ×
        </button>
      </header>
      <div className="span-detail-stats">
        <span className="span-detail-status" data-status={span.status}>
          {span.status}
        </span>
        {duration !== undefined && <span>{formatDuration(duration)}</span>}
        {span.tokens > 0 && <span>{formatTokens(span.tokens)}</span>}
        <span className="span-detail-time">{new Date(span.start).toLocaleTimeString()}</span>
      </div>
      <div className="span-detail-body">
        <Detail span={span} view={view} />
        <Section title={`Events (${span.events.length})`} open={false}>
          {span.events.map((e) => (
            <TextBlock key={e.seq} label={`#${e.seq} ${e.type}`} text={JSON.stringify(e)} json />
          ))}
        </Section>
      </div>
    </aside>
  );
}
