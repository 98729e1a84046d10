import { applyCommand } from '../commands/applyCommand';
import { CommandRejected, type DocumentCommand } from '../commands/command';
import { copyAction, editAction, pasteAction, redoAction, undoAction, type DocumentAction, type PerformResult } from '../commands/documentAction';
import type { DocumentDraft } from '../commands/documentDraft';
import { WrongDocumentKind } from '../commands/documentKind';
import { isFlowDraft } from '../commands/flow/flowDraft';
import { withFlowFullLayout } from '../commands/flow/flowLayout';
import { withFullLayout } from '../commands/fullLayout';
import type { DocumentSession } from './documentSession';
import type { DocumentState } from './documentState';
import { recordEdit, redoStep, sealHistory, undoStep, type UndoHistory } from './undoHistory';

type EditActions = Pick<DocumentState, 'run' | 'perform' | 'undo' | 'redo' | 'sealHistory' | 'copy' | 'paste' | 'dismissRejection'>;

/**
 * The document store's edit actions: every change of the open document is a `DocumentAction` run here
 * (an edit command, undo, redo, copy, paste), so each is recorded in, or moves through, the undo history.
 */
export function documentEditActions(session: DocumentSession): EditActions {
  const { set, get } = session;
  return {
    run: (action) => runAction(session, action),
    perform: (command) => get().run(editAction(command)),
    undo() {
      get().run(undoAction());
    },
    redo() {
      get().run(redoAction());
    },
    sealHistory() {
      const sealed = sealHistory(get().history);
      if (sealed !== get().history) set({ history: sealed });
    },
    copy: (nodeIds) => get().run(copyAction(nodeIds)).ok,
    paste: () => get().run(pasteAction()),
    dismissRejection() {
      set({ rejection: undefined });
    },
  };
}

const UNCHANGED: PerformResult = { ok: true, changed: false };

function runAction(session: DocumentSession, action: DocumentAction): PerformResult {
  switch (action.type) {
    case 'edit':
      return performEdit(session, action.payload.command);
    case 'undo':
      return moveInHistory(session, undoStep);
    case 'redo':
      return moveInHistory(session, redoStep);
    case 'copy':
      return session.clipboard.copy(session.get().doc, action.payload.nodeIds) ? UNCHANGED : { ok: false, reason: 'Select agents or tasks to copy.' };
    case 'paste': {
      const pasted = session.clipboard.paste(session.get().doc);
      return 'refused' in pasted ? { ok: false, reason: pasted.refused } : performEdit(session, pasted.command);
    }
  }
}

/** Performs an edit command on the open document and records it as an undo step. */
function performEdit(session: DocumentSession, command: DocumentCommand): PerformResult {
  const { doc, history } = session.get();
  if (doc === undefined) return { ok: false, reason: 'No crew is open.' };
  let next: DocumentDraft;
  try {
    // Nodes placed by the auto-layout keep their place once the person starts editing.
    const base = isFlowDraft(doc) ? withFlowFullLayout(doc) : withFullLayout(doc);
    next = applyCommand(base, command);
    if (next === base) next = doc;
  } catch (error) {
    if (error instanceof WrongDocumentKind) return { ok: false, reason: error.message, error };
    if (error instanceof CommandRejected) {
      session.set({ rejection: { message: error.message, at: Date.now() } });
      return { ok: false, reason: error.message };
    }
    throw error;
  }
  if (next === doc) return UNCHANGED;
  session.commit(next, recordEdit(history, doc, next, command));
  return { ok: true, changed: true };
}

type HistoryStep = (history: UndoHistory, doc: DocumentDraft) => { doc: DocumentDraft; history: UndoHistory } | undefined;

/** One step back (undo) or forward (redo) through the history; unchanged when there is none. */
function moveInHistory(session: DocumentSession, step: HistoryStep): PerformResult {
  const { doc, history } = session.get();
  const moved = doc === undefined ? undefined : step(history, doc);
  if (!moved) return UNCHANGED;
  session.commit(moved.doc, moved.history);
  return { ok: true, changed: true };
}
