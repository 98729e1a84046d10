import { deleteNodes } from '../../commands/deleteNodes';
import { useDocumentStore } from '../../stores/documentStore';
import { InspectorHeader } from './InspectorHeader';

/** Several nodes selected: what they are, and what can be done to all of them. */
export function MultiSelection({ nodeIds }: { nodeIds: string[] }) {
  const agents = nodeIds.filter((id) => id.startsWith('agent:')).length;
  const tasks = nodeIds.filter((id) => id.startsWith('task:')).length;
  const parts = [agents > 0 && `${agents} agent${agents === 1 ? '' : 's'}`, tasks > 0 && `${tasks} task${tasks === 1 ? '' : 's'}`].filter(Boolean).join(', ');
  const store = useDocumentStore.getState;
  return (
    <>
      <InspectorHeader kind="crew" kindLabel="Selection" title={`${nodeIds.length} nodes selected`} />
      <div className="insp-body-note">
        <p>{parts || 'Nothing editable selected.'}</p>
        <div className="insp-actions">
          <button type="button" className="btn" onClick={() => store().copy(nodeIds)} data-testid="inspector-copy">
            Copy
          </button>
          <button type="button" className="btn" onClick={() => store().copy(nodeIds) && store().paste()} data-testid="inspector-duplicate">
            Duplicate
          </button>
          <button type="button" className="btn is-danger" onClick={() => store().perform(deleteNodes(nodeIds))} data-testid="inspector-delete">
            Delete
          </button>
        </div>
        <p className="insp-hint">Select a single node to edit its fields. Shift-click or drag a box to change the selection.</p>
      </div>
    </>
  );
}
