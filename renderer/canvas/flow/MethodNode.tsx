import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { BODY_KIND_LABEL } from '../../commands/flow/defaultBody';
import { FLOW_HANDLE, routeHandleId } from '../../commands/flow/connectMethods';
import { NodeProblems } from '../nodes/NodeProblems';
import { NodeRunBadge } from '../nodes/NodeRunBadge';
import { useMethodRun } from '../nodes/useMethodRun';
import { useNodeRun } from '../nodes/useNodeRun';
import { BodyIcon } from './BodyIcon';
import { PausedMarker } from './PausedMarker';
import { StubMarker } from './StubMarker';
import { useRunStore } from '../../stores/runStore';
import { useFlowLabels } from './useFlowLabels';
import type { MethodNode as MethodNodeType } from './flowGraphTypes';

const ROLE_LABEL = { start: 'start', listen: 'listens', router: 'router' } as const;

/**
 * A flow method: name, body kind (icon) and a one-line summary of the body, coloured by role (start,
 * listener, router). Handles: left ← what it listens to; right → drag to a method to make it listen
 * to this one's completion; a router has one labelled handle per route instead (and a bottom handle
 * for "completed, whichever route").
 */
export const MethodNode = memo(function MethodNode({ id, data, selected }: NodeProps<MethodNodeType>) {
  const { status, counters } = useNodeRun(id);
  // Run overlay (renderer/canvas/nodes/useMethodRun.ts): calls of a looping method, the route a router took.
  const run = useMethodRun(data.key);
  // The shown run reached this method as an imported CrewAI stub (its Python did not run).
  const stubReached = useRunStore((s) => s.view?.stubsReached.some((x) => x.methodId === data.key) ?? false);
  // Zoomed out (Fit on a long flow): only the name, in full and at a readable size on screen.
  const lowDetail = useFlowLabels();
  const kindLabel = (BODY_KIND_LABEL as Record<string, string>)[data.bodyKind] ?? data.bodyKind;
  const router = data.routes.length > 0;
  return (
    <div
      className={`crew-node flow-node flow-node--method${lowDetail ? ' is-low-detail' : ''}`}
      data-role={data.role}
      data-status={status}
      data-selected={selected || undefined}
      data-invalid={data.problems.length > 0 || undefined}
      data-warned={data.warnings.length > 0 || undefined}
      data-stub-reached={stubReached || undefined}
      data-testid={`flow-method-${data.key}`}
    >
      <Handle type="target" position={Position.Left} id={FLOW_HANDLE.in} className="crew-handle flow-handle is-in" title="Listens to: drop a method’s output or a route here" />
      {router ? (
        <Handle type="source" position={Position.Bottom} id={FLOW_HANDLE.out} className="crew-handle flow-handle is-out is-done" title="Drag to a method: it runs when this router completes, whichever route" />
      ) : (
        <Handle type="source" position={Position.Right} id={FLOW_HANDLE.out} className="crew-handle flow-handle is-out" title="Drag to a method: it runs when this one completes" data-testid={`method-out-${data.key}`} />
      )}
      <div className="crew-node-header">
        <span className="crew-node-kind flow-node-kind" title={kindLabel}>
          <BodyIcon kind={data.bodyKind} />
        </span>
        <span className="crew-node-title" title={data.name}>
          {data.name}
        </span>
        {!lowDetail && run.calls > 1 && (
          <span className="flow-node-calls" data-testid="method-calls" title={`Called ${run.calls} times in this run`}>
            ×{run.calls}
          </span>
        )}
        {!lowDetail && data.bodyKind === 'for_each' && (
          <span
            className="flow-node-calls flow-node-items"
            data-testid="method-items"
            title={run.items ? `For each item: ${run.items.done} of ${run.items.total} done${run.items.failed ? `, ${run.items.failed} failed` : ''}` : 'Runs its body once per item'}
          >
            ×{run.items ? (run.items.done < run.items.total && status === 'running' ? `${run.items.done}/${run.items.total}` : run.items.total) : 'N'}
          </span>
        )}
        {!lowDetail && <NodeRunBadge status={status} counters={counters} />}
      </div>
      {!lowDetail && (
        <>
          <div className="crew-node-meta flow-node-meta">
            <span className="flow-node-role" data-role={data.role}>
              {ROLE_LABEL[data.role]}
            </span>
            {data.start && data.role === 'router' && <span className="flow-node-role" data-role="start">start</span>}
            <span>{kindLabel}</span>
          </div>
          {data.summary && (
            <div className="flow-node-summary" title={data.summary}>
              {data.summary}
            </div>
          )}
        </>
      )}
      <PausedMarker methodKey={data.key} />
      <StubMarker methodKey={data.key} />
      {router && (
        <div className="flow-node-routes" aria-label="Routes">
          {data.routes.map((route) => (
            <div key={route} className="flow-node-route" data-taken={run.route === route || undefined} data-testid={`route-${data.key}-${route}`}>
              <span className="flow-node-route-label">{route}</span>
              <Handle
                type="source"
                position={Position.Right}
                id={routeHandleId(route)}
                className="crew-handle flow-handle is-route"
                title={`Drag to a method: it runs when this router chooses "${route}"`}
                data-testid={`route-handle-${data.key}-${route}`}
              />
            </div>
          ))}
        </div>
      )}
      {!lowDetail && <NodeProblems problems={data.problems} />}
      {!lowDetail && data.problems.length === 0 && <NodeProblems problems={data.warnings} warning />}
    </div>
  );
});
