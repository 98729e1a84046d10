import type { Command } from '../commands/command';
import { applyPatch, diffDocuments, type DocumentPatch } from './documentPatch';

/** One undo step (Excalidraw-style): the command's label and the patch pair that undoes and redoes it. */
export interface HistoryEntry {
  readonly label: string;
  readonly undo: DocumentPatch;
  readonly redo: DocumentPatch;
}

/**
 * The undo history of the open document, an immutable value the document store holds: steps before
 * the current document (oldest first) and after it (next first). Selection and viewport are never
 * recorded; a drag is one step (the canvas sends it once, at its end).
 */
export interface UndoHistory {
  readonly past: readonly HistoryEntry[];
  readonly future: readonly HistoryEntry[];
  /** The coalesce key of the last recorded edit while it is open: the next edit with that key joins it. */
  readonly openKey?: string;
}

export const EMPTY_HISTORY: UndoHistory = { past: [], future: [] };
export const HISTORY_LIMIT = 200;

const entry = (label: string, before: unknown, after: unknown): HistoryEntry => ({ label, undo: diffDocuments(after, before), redo: diffDocuments(before, after) });

/**
 * The history after `command` turned `before` into `after`: a new step (the redo branch is dropped),
 * or, when the command continues the open coalesced edit (typing into one field), that step widened.
 */
export function recordEdit<T>(history: UndoHistory, before: T, after: T, command: Pick<Command, 'label' | 'coalesceKey'>): UndoHistory {
  const key = command.coalesceKey;
  const last = history.past.at(-1);
  if (key !== undefined && key === history.openKey && last) {
    const start = applyPatch(before, last.undo);
    return { past: [...history.past.slice(0, -1), entry(last.label, start, after)], future: [], openKey: key };
  }
  return { past: [...history.past, entry(command.label, before, after)].slice(-HISTORY_LIMIT), future: [], openKey: key };
}

/** The document one step back and the history after it; undefined when there is nothing to undo. */
export function undoStep<T>(history: UndoHistory, doc: T): { doc: T; history: UndoHistory } | undefined {
  const last = history.past.at(-1);
  if (!last) return undefined;
  return { doc: applyPatch(doc, last.undo), history: { past: history.past.slice(0, -1), future: [last, ...history.future] } };
}

/** The document one step forward again and the history after it; undefined when there is nothing to redo. */
export function redoStep<T>(history: UndoHistory, doc: T): { doc: T; history: UndoHistory } | undefined {
  const next = history.future[0];
  if (!next) return undefined;
  return { doc: applyPatch(doc, next.redo), history: { past: [...history.past, next], future: history.future.slice(1) } };
}

/** Ends the open coalesced edit (a text field lost focus): the next edit is a step of its own. */
export function sealHistory(history: UndoHistory): UndoHistory {
  return history.openKey === undefined ? history : { past: history.past, future: history.future };
}
