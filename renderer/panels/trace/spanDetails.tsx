import type { ComponentType } from 'react';
import type { EventFamily } from '../../../shared/events';
import type { RunView, SpanKind, TraceSpan } from '../../stores/runView';
import { AgentDetail } from './detail/AgentDetail';
import { DelegationDetail } from './detail/DelegationDetail';
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

export type DetailProps = { span: TraceSpan; view: RunView };

/** The details of a selected span, by its kind: a span kind without one does not compile. */
export const SPAN_DETAILS = {
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

/**
 * Where each event family is shown in the trace: the kind of span whose detail shows its events, or null
 * for a family a run's trace does not show (training and test sessions have panels of their own). A family
 * added to the catalog without an entry here does not compile (test/renderer/run/familyDetails.test.ts).
 */
export const FAMILY_DETAILS = {
  run: 'run',
  // A cap reached shows as the run's pause ("Waiting for a higher budget").
  budget: 'run',
  training: null,
  test: null,
  flow: 'method',
  planning: 'planning',
  task: 'task',
  // Writes have spans of their own; recalls show on the task's span (TaskMemoryDetail).
  memory: 'memory',
  knowledge: 'task',
  agent: 'agent',
  llm: 'llm',
  // Counted in the run's usage (and in the tokens of the span they were made for).
  embedding: 'run',
  tool: 'tool',
  delegation: 'delegation',
  guardrail: 'guardrail',
  human: 'human',
} satisfies { [F in EventFamily]: SpanKind | null };
