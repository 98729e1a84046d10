import { useEffect, type RefObject } from 'react';
import { composeCommands, type DocumentCommand } from '../commands/command';
import { deleteNodes } from '../commands/deleteNodes';
import { disconnectEdges, type EdgeRef } from '../commands/disconnect';
import { documentNodeIds } from '../commands/nodeRefs';
import { reorderTask } from '../commands/reorderTask';
import { EDITABLE, keepsOwnTextHistory } from '../commands/textHistory';
import { useDocumentStore } from '../stores/documentStore';
import { useUiStore } from '../stores/uiStore';

/**
 * Canvas keys: Ctrl/Cmd+Z undo, Ctrl+Shift+Z / Ctrl+Y redo, Ctrl/Cmd+C/X/V copy, cut, paste,
 * Ctrl/Cmd+A select all, Delete/Backspace delete, Alt+↑/↓ move the selected task in the order.
 * Editing keys apply when the focus is on the canvas (or nowhere); undo/redo also from the inspector's
 * fields, where they undo whole field edits. Text boxes that keep their own history (commands/textHistory.ts) undo their typing.
 */
export function useCanvasShortcuts(
  container: RefObject<HTMLElement | null>,
  selectedEdges: () => EdgeRef[],
  /** Replaces the crew's delete (a flow deletes methods, gates and listen edges); undefined when nothing is selected. */
  deleteSelection?: (selectedNodeIds: string[]) => DocumentCommand | undefined,
): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target instanceof Element ? event.target : null;
      const inCanvas = !target || target === document.body || (container.current?.contains(target) ?? false);
      const inInspector = target?.closest('[data-undo-scope]') != null;
      const editing = target?.closest(EDITABLE) != null;
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      const store = useDocumentStore.getState();

      if (mod && (key === 'z' || key === 'y')) {
        if (!(inCanvas || inInspector) || keepsOwnTextHistory(target)) return;
        event.preventDefault();
        if (key === 'y' || event.shiftKey) store.redo();
        else store.undo();
        return;
      }
      if (!inCanvas || editing || store.doc === undefined) return;
      const selected = useUiStore.getState().selectedNodeIds;
      // Alt+↑/↓ moves a task when it is the only node selected.
      const soleTask = selected.length === 1 ? selected.find((id) => id.startsWith('task:')) : undefined;

      if (mod && (key === 'c' || key === 'x')) {
        // Text selected on the page (trace, output…) is copied the ordinary way.
        if (window.getSelection()?.toString()) return;
        if (store.copy(selected) && key === 'x') store.perform(deleteNodes(selected));
        event.preventDefault();
      } else if (mod && key === 'v') {
        event.preventDefault();
        store.paste();
      } else if (mod && key === 'a') {
        event.preventDefault();
        useUiStore.getState().select(documentNodeIds(store.doc));
      } else if ((event.key === 'Delete' || event.key === 'Backspace') && deleteSelection) {
        const command = deleteSelection(selected);
        if (!command) return;
        event.preventDefault();
        store.perform(command);
      } else if (event.key === 'Delete' || event.key === 'Backspace') {
        const edges = selectedEdges();
        if (selected.length === 0 && edges.length === 0) return;
        event.preventDefault();
        store.perform(composeCommands('Delete', [disconnectEdges(edges), deleteNodes(selected)]));
      } else if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown') && soleTask !== undefined) {
        event.preventDefault();
        store.perform(reorderTask(soleTask, event.key === 'ArrowUp' ? -1 : 1));
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [container, selectedEdges, deleteSelection]);
}
