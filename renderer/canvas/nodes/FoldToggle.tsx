import { useDocumentStore } from '../../stores/documentStore';
import { useCrewViewStore } from '../../stores/crewViewStore';

/** On an agent of a large crew: folds its tasks into it (a count badge) or unfolds them. */
export function FoldToggle({ agentNodeId, tasks, collapsed }: { agentNodeId: string; tasks: number; collapsed: boolean }) {
  const label = `${tasks} ${tasks === 1 ? 'task' : 'tasks'}`;
  return (
    <button
      type="button"
      className={`crew-fold nodrag${collapsed ? ' is-collapsed' : ''}`}
      aria-pressed={collapsed}
      title={collapsed ? `Show its ${label}` : `Fold its ${label} into it`}
      data-testid={`fold-${agentNodeId}`}
      onClick={(event) => {
        event.stopPropagation();
        const path = useDocumentStore.getState().path;
        if (path) useCrewViewStore.getState().toggleCollapsed(path, agentNodeId);
      }}
    >
      <span aria-hidden>{collapsed ? '▸' : '▾'}</span>
      {collapsed ? `+${label}` : label}
    </button>
  );
}
