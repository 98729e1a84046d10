import type { EventOf } from '../../../shared/events';
import type { FamilyFold } from './eventFold';
import type { RunDraft } from './runDraft';
import { taskNodeId } from '../../model/nodeIds';
import { argsPreview } from './argsPreview';

/** Tool calls (counted on their task and agent nodes) and guardrail checks. */

function toolStarted(d: RunDraft, e: EventOf<'tool.started'>): void {
  const span = d.open(e, 'tool', e.tool, argsPreview(e.args));
  if (span.taskId) d.bump(taskNodeId(span.taskId), 'toolCalls');
  if (span.agentNode) d.bump(span.agentNode, 'toolCalls');
}

export const TOOL_FOLD = {
  'tool.started': toolStarted,
  'tool.completed': (d, e) => void d.close(e, 'done'),
  'tool.failed': (d, e) => void d.close(e, 'failed'),
  'tool.blocked': (d, e) => void d.close(e, 'blocked'),
  'tool.cached': (d, e) => void d.close(e, 'cached'),
  'tool.output': (d, e) => void d.record(e),
} satisfies FamilyFold<'tool'>;

export const GUARDRAIL_FOLD = {
  'guardrail.started': (d, e) => void d.open(e, 'guardrail', e.index < 0 ? 'output check' : e.guardrailType, `attempt ${e.attempt}`),
  'guardrail.passed': (d, e) => void d.close(e, 'done'),
  'guardrail.failed': (d, e) => void d.close(e, 'failed'),
} satisfies FamilyFold<'guardrail'>;
