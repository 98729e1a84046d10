import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { HANDLE, type AgentNode as AgentNodeType } from '../graphTypes';
import { AgentIcon } from '../icons';
import { FoldToggle } from './FoldToggle';
import { NodeProblems } from './NodeProblems';
import { NodeRunBadge } from './NodeRunBadge';
import { ToolChips } from './ToolChips';
import { useLowDetail } from './useLowDetail';
import { useNodeRun } from './useNodeRun';
import { useSettingsStore } from '../../stores/settingsStore';
import { DEFAULT_MODEL_LABEL } from '../modelLabel';

/** An agent: role, model and tool chips; tasks connect to its left handle. */
export const AgentNode = memo(function AgentNode({ id, data, selected }: NodeProps<AgentNodeType>) {
  const { status, counters } = useNodeRun(id);
  const lowDetail = useLowDetail();
  // An agent with no model of its own runs on the workspace's default profile: name it.
  const defaultProfile = useSettingsStore((s) => (data.model === DEFAULT_MODEL_LABEL ? s.settings?.models.default : undefined));
  const model = defaultProfile ? `${DEFAULT_MODEL_LABEL} · ${defaultProfile}` : data.model;
  return (
    <div
      className={`crew-node crew-node--agent${lowDetail ? ' is-low-detail' : ''}`}
      data-status={status}
      data-selected={selected || undefined}
      data-invalid={data.problems.length > 0 || undefined}
      data-collapsed={data.fold?.collapsed || undefined}
      data-testid={`crew-node-${id}`}
    >
      <Handle type="target" position={Position.Left} id={HANDLE.agentIn} className="crew-handle" />
      {data.delegation && (
        <>
          <Handle type="target" position={Position.Right} id={HANDLE.agentManager} className="crew-handle is-hidden" isConnectable={false} />
          <Handle type="source" position={Position.Right} id={HANDLE.managerOut} className="crew-handle is-hidden" isConnectable={false} />
        </>
      )}
      <div className="crew-node-header">
        <span className="crew-node-kind" aria-hidden>
          <AgentIcon />
        </span>
        <span className="crew-node-title" title={data.role}>
          {data.role}
        </span>
        {!lowDetail && <NodeRunBadge status={status} counters={counters} />}
      </div>
      {data.fold && <FoldToggle agentNodeId={id} tasks={data.fold.tasks} collapsed={data.fold.collapsed} />}
      {!lowDetail && (
        <>
          <div className="crew-node-meta">
            <span className="crew-node-model" title={`Model: ${model}`}>
              {model}
            </span>
            {data.allowDelegation && <span className="crew-badge">delegates</span>}
          </div>
          <ToolChips tools={data.tools} />
          <NodeProblems problems={data.problems} />
        </>
      )}
    </div>
  );
});
