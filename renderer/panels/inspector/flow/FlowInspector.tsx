import '../../../styles/flow.css';
import { methodIndexOf, methodsOf, routesOf, str, type FlowDraft } from '../../../commands/flow/flowDraft';
import { deleteFlowNodes } from '../../../commands/flow/deleteFlowNodes';
import { parseGateNodeId } from '../../../model/nodeIds';
import { useDocumentStore } from '../../../stores/documentStore';
import { FlowForm } from './FlowForm';
import { FlowHeader } from './FlowHeader';
import { GateForm } from './GateForm';
import { MethodForm } from './MethodForm';

/** The inspector for a flow: the selected method's or gate's form, or the flow's when nothing is selected. */
export function FlowInspector({ doc: flow, selected, profiles }: { doc: FlowDraft; selected: string[]; profiles: readonly string[] }) {
  if (selected.length > 1) {
    return (
      <>
        <FlowHeader kind="flow" icon="router" kindLabel="Selection" title={`${selected.length} nodes selected`} />
        <div className="insp-body-note">
          <div className="insp-actions">
            <button type="button" className="btn is-danger" onClick={() => useDocumentStore.getState().perform(deleteFlowNodes(selected))} data-testid="inspector-delete">
              Delete
            </button>
          </div>
          <p className="insp-hint">Select a single method or gate to edit it.</p>
        </div>
      </>
    );
  }
  const nodeId = selected.length === 1 ? selected[0] : undefined;
  if (nodeId !== undefined) {
    const gate = parseGateNodeId(nodeId);
    if (gate) return <GateForm key={nodeId} doc={flow} nodeId={nodeId} listener={gate.methodKey} path={gate.path} />;
    const index = methodIndexOf(flow, nodeId);
    const methods = methodsOf(flow);
    const method = methods[index];
    if (method !== undefined) {
      const otherNames = methods.filter((_, i) => i !== index).map((m) => str(m.name)).filter((n): n is string => n !== undefined);
      const otherRoutes = [...new Set(methods.filter((_, i) => i !== index).flatMap(routesOf))];
      return <MethodForm key={nodeId} nodeId={nodeId} index={index} method={method} otherNames={otherNames} otherRoutes={otherRoutes} profiles={profiles} />;
    }
  }
  return <FlowForm doc={flow} />;
}
