import type { DocumentCommand } from './command';
import type { WrongDocumentKind } from './documentKind';

/**
 * What the document store runs (Excalidraw's actions, where undo and redo are actions too): an edit
 * (a `DocumentCommand`: a crew's or a flow's), a step through the undo history, or a clipboard
 * action, each with its typed payload. `DocumentState.run` executes any of them; `perform`, `undo`,
 * `redo`, `copy` and `paste` are its shorthands.
 */
export type DocumentAction =
  | { readonly type: 'edit'; readonly payload: { readonly command: DocumentCommand } }
  | { readonly type: 'undo'; readonly payload: HistoryMove }
  | { readonly type: 'redo'; readonly payload: HistoryMove }
  | { readonly type: 'copy'; readonly payload: { readonly nodeIds: readonly string[] } }
  | { readonly type: 'paste'; readonly payload: Record<string, never> };

export type DocumentActionType = DocumentAction['type'];
export type DocumentActionOf<T extends DocumentActionType> = Extract<DocumentAction, { type: T }>;

/** A step through the undo history (one step per undo or redo; a drag or a coalesced edit is one step). */
export type HistoryMove = { readonly steps: 1 };

/**
 * How an action went: applied (`changed` false when it left the document as it was: an edit that
 * changed nothing, an undo with no step left, a copy), or refused, with the reason for the person
 * (nothing selected to copy, nothing to paste…); `error` is set when an edit was for the other kind
 * of document.
 */
export type PerformResult = { ok: true; changed: boolean } | { ok: false; reason: string; error?: WrongDocumentKind };

export const editAction = (command: DocumentCommand): DocumentActionOf<'edit'> => ({ type: 'edit', payload: { command } });
export const undoAction = (): DocumentActionOf<'undo'> => ({ type: 'undo', payload: { steps: 1 } });
export const redoAction = (): DocumentActionOf<'redo'> => ({ type: 'redo', payload: { steps: 1 } });
export const copyAction = (nodeIds: readonly string[]): DocumentActionOf<'copy'> => ({ type: 'copy', payload: { nodeIds } });
export const pasteAction = (): DocumentActionOf<'paste'> => ({ type: 'paste', payload: {} });
