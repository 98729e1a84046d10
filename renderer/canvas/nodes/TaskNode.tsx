import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { reorderTask } from '../../commands/reorderTask';
import { useDocumentStore } from '../../stores/documentStore';
import { parseNodeId } from '../../model/nodeIds';
import { useUiStore } from '../../stores/uiStore';
import { PausedMarker } from '../flow/PausedMarker';
import { HANDLE, type TaskNode as TaskNodeType } from '../graphTypes';
import { AsyncIcon, BranchIcon, ContextIcon, HumanIcon, OutputIcon, ShieldIcon, ToolIcon } from '../icons';
import { NodeProblems } from './NodeProblems';
import { NodeRunBadge } from './NodeRunBadge';
import { useLowDetail } from './useLowDetail';
import { useNodeRun } from './useNodeRun';

/**
 * A task: its place in the order, name and description, and badges for guardrails, human review,
 * async, condition and context. Handles: right → drag to an agent to assign; bottom → drag to a later
 * task to give it this task's output as context; top ← context from earlier tasks.
 */
export const TaskNode = memo(function TaskNode({ id, data, selected }: NodeProps<TaskNodeType>) {
  const { status, counters } = useNodeRun(id);
  const lowDetail = useLowDetail();
  // Reorder buttons only for a task selected alone (a boolean selector: re-renders only when it flips).
  const alone = useUiStore((s) => s.selectedNodeIds.length === 1 && s.selectedNodeIds[0] === id);
  const move = (delta: -1 | 1) => useDocumentStore.getState().perform(reorderTask(id, delta));
  return (
    <div
      className={`crew-node crew-node--task${lowDetail ? ' is-low-detail' : ''}`}
      data-status={status}
      data-selected={selected || undefined}
      data-invalid={data.problems.length > 0 || undefined}
      data-testid={`crew-node-${id}`}
    >
      <Handle type="target" position={Position.Top} id={HANDLE.taskIn} className="crew-handle is-context" title="Context from earlier tasks" />
      <Handle type="source" position={Position.Bottom} id={HANDLE.taskOut} className="crew-handle is-context" title="Drag to a later task to give it this output as context" />
      <Handle type="source" position={Position.Right} id={HANDLE.taskAssign} className="crew-handle is-assign" title="Drag to an agent to assign" />
      <div className="crew-node-header">
        <span className="crew-node-order" title={`Runs ${ordinal(data.order)}`}>
          {data.order}
        </span>
        <span className="crew-node-title" title={data.title}>
          {data.title}
        </span>
        {!lowDetail && <NodeRunBadge status={status} counters={counters} />}
        {alone && !status && !lowDetail && (
          <span className="crew-node-reorder nodrag">
            <button type="button" aria-label="Move task up" title="Move up (Alt+↑)" disabled={data.order === 1} onClick={() => move(-1)}>
              ▲
            </button>
            <button type="button" aria-label="Move task down" title="Move down (Alt+↓)" disabled={data.order === data.taskCount} onClick={() => move(1)}>
              ▼
            </button>
          </span>
        )}
      </div>
      {!lowDetail && (
        <>
          {data.excerpt && <div className="crew-node-excerpt">{data.excerpt}</div>}
          <div className="crew-node-badges">
            {data.guardrails > 0 && (
              <span className="crew-badge is-guardrail" title={`${data.guardrails} guardrail${data.guardrails === 1 ? '' : 's'}`} data-testid="badge-guardrails">
                <ShieldIcon size={11} />
                {data.guardrails}
              </span>
            )}
            {data.humanInput && (
              <span className="crew-badge is-human" title="A person reviews the output" data-testid="badge-human">
                <HumanIcon size={11} />
                review
              </span>
            )}
            {data.async && (
              <span className="crew-badge" title="Runs asynchronously">
                <AsyncIcon size={11} />
                async
              </span>
            )}
            {data.condition && (
              <span className="crew-badge is-condition" title={`Skipped unless: ${data.condition}`}>
                <BranchIcon size={11} />
                <span className="crew-badge-text">{data.condition}</span>
              </span>
            )}
            {data.outputFormat && (
              <span className="crew-badge" title={`Output format: ${data.outputFormat}`}>
                <OutputIcon size={11} />
                {data.outputFormat}
              </span>
            )}
            {data.toolOverride !== undefined && (
              <span className="crew-badge" title="This task sets its own tools">
                <ToolIcon size={11} />
                {data.toolOverride}
              </span>
            )}
            {data.order > 1 && data.context !== 'list' && (
              <span className="crew-badge is-subtle" title={data.context === 'none' ? 'Gets no context' : 'Gets the output of every earlier task (default)'}>
                <ContextIcon size={11} />
                {data.context === 'none' ? 'no context' : 'all prior'}
              </span>
            )}
          </div>
          <NodeProblems problems={data.problems} />
        </>
      )}
      {/* A crew paused at its budget waits at this task: Extend… opens the budget dialog. */}
      <PausedMarker methodKey={parseNodeId(id)?.kind === 'task' ? id.slice('task:'.length) : id} />
    </div>
  );
});

function ordinal(n: number): string {
  return n === 1 ? 'first' : n === 2 ? 'second' : n === 3 ? 'third' : `#${n}`;
}
