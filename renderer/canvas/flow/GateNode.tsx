import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { FLOW_HANDLE } from '../../commands/flow/connectMethods';
import { useListenerRun } from '../nodes/useMethodRun';
import type { GateNode as GateNodeType } from './flowGraphTypes';

/**
 * An `and`/`or` of a listen condition: its members come in on the left, the gate feeds its listener
 * (or the enclosing gate) on the right. `or` fires on any member, `and` once all have completed since
 * the listener last ran. Switch it in the inspector; drop more outputs on it to add members.
 * During a run it lights like the edges through it once the condition has fired its listener.
 */
export const GateNode = memo(function GateNode({ data, selected }: NodeProps<GateNodeType>) {
  const key = `${data.listener}${data.path.map((i) => `.${i}`).join('')}`;
  const run = useListenerRun(data.listener);
  return (
    <div
      className="flow-gate"
      data-op={data.op}
      data-run={run}
      data-selected={selected || undefined}
      data-testid={`flow-gate-${key}`}
      title={data.op === 'and' ? `${data.listenerName} waits for all ${data.members} of these` : `${data.listenerName} runs on any of these`}
    >
      <Handle type="target" position={Position.Left} id={FLOW_HANDLE.in} className="crew-handle flow-handle is-in" />
      <span className="flow-gate-op">{data.op.toUpperCase()}</span>
      <Handle type="source" position={Position.Right} id={FLOW_HANDLE.out} className="crew-handle flow-handle is-out is-hidden" isConnectable={false} />
    </div>
  );
});
