import { setGateOp } from '../../../commands/flow/setGateOp';
import { conditionAt } from '../../../commands/flow/conditionTree';
import { methodIndexByKey, methodsOf, str, triggerOf, type FlowDraft } from '../../../commands/flow/flowDraft';
import { deleteFlowNodes } from '../../../commands/flow/deleteFlowNodes';
import { useDocumentStore } from '../../../stores/documentStore';
import { conditionText } from '../../../canvas/flow/conditionText';
import { FlowHeader } from './FlowHeader';

/** An and/or gate of a listener's condition: switch it, see its members, delete it. */
export function GateForm({ doc: flow, nodeId, listener, path }: { doc: FlowDraft; nodeId: string; listener: string; path: number[] }) {
  const index = methodIndexByKey(flow, listener);
  const method = index >= 0 ? methodsOf(flow)[index] : undefined;
  const condition = method ? conditionAt(triggerOf(method).listen, path) : undefined;
  const op = condition && typeof condition === 'object' && 'and' in condition ? 'and' : 'or';
  const perform = useDocumentStore.getState().perform;
  const name = method ? (str(method.name) ?? listener) : listener;
  return (
    <>
      <FlowHeader kind="gate" icon="rules" kindLabel={`Gate of ${name}`} title={op === 'and' ? 'All of (and)' : 'Any of (or)'}>
        <button type="button" className="btn ghost is-danger" onClick={() => perform(deleteFlowNodes([nodeId]))} data-testid="inspector-delete">
          Delete
        </button>
      </FlowHeader>
      <div className="insp-body-note">
        <div className="flow-op-toggle" role="group" aria-label="Gate kind">
          {(['or', 'and'] as const).map((o) => (
            <button key={o} type="button" aria-pressed={op === o} data-testid={`gate-op-${o}`} onClick={() => perform(setGateOp(listener, path, o))}>
              {o}
            </button>
          ))}
        </div>
        <p className="insp-hint">
          {op === 'and'
            ? `${name} runs once every member has completed since it last ran.`
            : `${name} runs as soon as any member completes (or its route is chosen).`}
        </p>
        <div className="flow-condition" data-testid="gate-condition">
          {conditionText(condition)}
        </div>
        <p className="insp-hint">Drop a method’s output or a route on the gate to add a member; delete an incoming edge to remove one. Deleting the gate removes it and its members from {name}’s condition.</p>
      </div>
    </>
  );
}
