import { create } from 'zustand';
import { documentEditActions } from './documentEditActions';
import { documentFileActions } from './documentFileActions';
import { createDocumentSession, NO_DOCUMENT } from './documentSession';
import type { DocumentState } from './documentState';

export type { Unreadable } from './documentFiles';
export type { PerformResult } from '../commands/documentAction';
export type { DocumentState, LoadState, SaveState } from './documentState';

export const selectCanUndo = (s: DocumentState) => s.history.past.length > 0;
export const selectCanRedo = (s: DocumentState) => s.history.future.length > 0;

/**
 * The open document. This store composes the parts that do the work, each owned here: the session
 * (documentSession.ts: autosave timing, the load sequence, the clipboard, the undo history as a value
 * in the state), the file actions (documentFileActions.ts: read, write, rename and delete the file
 * through the host) and the edit actions (documentEditActions.ts: commands, undo, redo, copy, paste).
 */
export const useDocumentStore = create<DocumentState>()((set, get) => {
  const session = createDocumentSession(set, get);

  // A closing window still sends what is pending (the request leaves synchronously).
  if (typeof window !== 'undefined') {
    window.addEventListener('beforeunload', () => {
      if (session.autosave.pending) void get().flushSave();
    });
  }

  return {
    loadState: 'idle',
    ...NO_DOCUMENT,
    ...documentFileActions(session),
    ...documentEditActions(session),
  };
});
