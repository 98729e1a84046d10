/** Elements a person types into. */
export const EDITABLE = 'input, textarea, select, [contenteditable="true"]';

/**
 * Whether Ctrl/Cmd+Z (and redo) in `element` should undo its own typing, the browser's way, rather
 * than the document's history: text fields outside the inspector's undo scope (`data-undo-scope`,
 * where one field edit is one document undo step), and text boxes marked `data-native-undo`.
 * Used by the canvas keys (canvas/useCanvasShortcuts.ts) and the native menu (useMenuCommands.ts).
 */
export function keepsOwnTextHistory(element: Element | null | undefined): boolean {
  if (!element?.closest(EDITABLE)) return false;
  return element.closest('[data-undo-scope]') === null || element.closest('[data-native-undo]') !== null;
}
