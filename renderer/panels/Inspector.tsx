import '../styles/inspector.css';
import { isFlowDocument } from '../model/documentKind';
import { MANAGER_NODE_ID } from '../model/nodeIds';
import { agentsOf, entry, tasksOf } from '../commands/crewDraft';
import { managerNodeId as managerNodeIdOf, resolveNode } from '../commands/nodeRefs';
import { useDocumentStore } from '../stores/documentStore';
import { useUiStore } from '../stores/uiStore';
import { AgentForm } from './inspector/AgentForm';
import { CrewForm } from './inspector/CrewForm';
import { FlowInspector } from './inspector/flow/FlowInspector';
import { InspectorHeader } from './inspector/InspectorHeader';
import { ManagerEditor } from './inspector/ManagerEditor';
import { MultiSelection } from './inspector/MultiSelection';
import { ProblemsContext } from './inspector/problemsContext';
import { TaskForm } from './inspector/TaskForm';
import { useModelProfiles } from './inspector/useModelProfiles';

/**
 * The right-hand panel: the form of the selected agent, task or manager, or of the crew when nothing
 * is selected. Every edit is an undoable command; typing into one field is one undo step (sealed when
 * the field loses focus). Validation messages show under the field at fault.
 */
export function Inspector() {
  const doc = useDocumentStore((s) => s.doc);
  const problems = useDocumentStore((s) => s.problems);
  const unreadable = useDocumentStore((s) => s.unreadable !== undefined);
  const selected = useUiStore((s) => s.selectedNodeIds);
  const profiles = useModelProfiles();

  let content;
  if (!doc) {
    content = <div className="insp-placeholder">{unreadable ? 'Repair the file on the canvas to edit the crew.' : 'Open a crew to inspect it.'}</div>;
  } else if (isFlowDocument(doc)) {
    content = <FlowInspector doc={doc} selected={selected} profiles={profiles} />;
  } else if (selected.length > 1) {
    content = <MultiSelection nodeIds={selected} />;
  } else if (selected.length === 1 && selected[0] === MANAGER_NODE_ID && managerNodeIdOf(doc) === MANAGER_NODE_ID) {
    content = (
      <>
        <InspectorHeader kind="manager" kindLabel="Manager" title="Built-in manager" />
        <div className="insp-body-note">
          <p className="insp-hint">The manager runs every task and delegates the work to the agents. It is part of the hierarchical process; switch to sequential to remove it.</p>
        </div>
        <ManagerEditor doc={doc} profiles={profiles} />
      </>
    );
  } else {
    const nodeId = selected.length === 1 ? selected[0] : undefined;
    const ref = nodeId !== undefined ? resolveNode(doc, nodeId) : undefined;
    if (nodeId === undefined || ref === undefined) {
      content = <CrewForm doc={doc} profiles={profiles} />;
    } else if (ref.kind === 'agent') {
      content = (
        <AgentForm key={nodeId} nodeId={nodeId} index={ref.index} agent={entry(agentsOf(doc)[ref.index])} profiles={profiles} isManager={managerNodeIdOf(doc) === nodeId} />
      );
    } else {
      content = <TaskForm key={nodeId} nodeId={nodeId} index={ref.index} task={entry(tasksOf(doc)[ref.index])} doc={doc} profiles={profiles} />;
    }
  }

  return (
    <aside
      className="inspector"
      aria-label="Inspector"
      data-testid="inspector"
      data-undo-scope
      onBlurCapture={() => useDocumentStore.getState().sealHistory()}
    >
      <ProblemsContext.Provider value={problems}>{content}</ProblemsContext.Provider>
    </aside>
  );
}
