import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { MANAGER_NODE_ID } from '../../model/nodeIds';
import { HANDLE, type ManagerNode as ManagerNodeType } from '../graphTypes';
import { ManagerIcon } from '../icons';
import { NodeProblems } from './NodeProblems';
import { NodeRunBadge } from './NodeRunBadge';
import { ToolChips } from './ToolChips';
import { useLowDetail } from './useLowDetail';
import { useNodeRun } from './useNodeRun';

/**
 * The manager of a hierarchical crew: the built-in one (its model), or a user agent named as manager
 * (drawn here instead of as a worker). It delegates to the worker agents along the delegation edges.
 */
export const ManagerNode = memo(function ManagerNode({ id, data, selected }: NodeProps<ManagerNodeType>) {
  const { status, counters } = useNodeRun(id, id === MANAGER_NODE_ID ? undefined : MANAGER_NODE_ID);
  const lowDetail = useLowDetail();
  return (
    <div
      className={`crew-node crew-node--manager${lowDetail ? ' is-low-detail' : ''}`}
      data-status={status}
      data-selected={selected || undefined}
      data-invalid={data.problems.length > 0 || undefined}
      data-testid={`crew-node-${id}`}
    >
      <Handle type="target" position={Position.Left} id={HANDLE.agentIn} className="crew-handle is-hidden" isConnectable={false} />
      <Handle type="source" position={Position.Right} id={HANDLE.managerOut} className="crew-handle is-hidden" isConnectable={false} />
      <div className="crew-node-header">
        <span className="crew-node-kind" aria-hidden>
          <ManagerIcon />
        </span>
        <span className="crew-node-title" title={data.title}>
          {data.title}
        </span>
        {!lowDetail && <span className="crew-badge is-manager">manager</span>}
        {!lowDetail && <NodeRunBadge status={status} counters={counters} />}
      </div>
      {!lowDetail && (
        <>
          <div className="crew-node-meta">
            <span className="crew-node-model" title={`Model: ${data.model}`}>
              {data.model}
            </span>
          </div>
          <div className="crew-node-meta crew-node-note">{data.delegateTo === 'all' ? 'Delegates to any agent' : "Delegates to each task's agent"}</div>
          {data.source === 'agent' && <ToolChips tools={data.tools} />}
          <NodeProblems problems={data.problems} />
        </>
      )}
    </div>
  );
});
