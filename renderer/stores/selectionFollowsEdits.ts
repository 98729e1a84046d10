import type { DocumentDraft } from '../commands/documentDraft';
import { documentNodeIds } from '../commands/nodeRefs';
import { useUiStore } from './uiStore';

/** Empties the canvas selection (another document is opened, or none). */
export function clearSelection(): void {
  if (useUiStore.getState().selectedNodeIds.length > 0) useUiStore.getState().select([]);
}

/** After an edit (or its undo): new nodes (added, pasted, renamed) become the selection; deleted ones leave it. */
export function selectionFollowsEdit(before: DocumentDraft | undefined, after: DocumentDraft): void {
  const ui = useUiStore.getState();
  const previous = new Set(before ? documentNodeIds(before) : []);
  const now = documentNodeIds(after);
  const added = now.filter((id) => !previous.has(id));
  if (added.length > 0 && before !== undefined) {
    ui.select(added);
    return;
  }
  const present = new Set(now);
  const kept = ui.selectedNodeIds.filter((id) => present.has(id));
  if (kept.length !== ui.selectedNodeIds.length) ui.select(kept);
}
