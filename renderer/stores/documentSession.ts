import type { StoreApi } from 'zustand';
import type { Problem } from '../../shared/model/problems';
import type { DocumentDraft } from '../commands/documentDraft';
import { Autosave } from './autosave';
import { DocumentClipboard } from './documentClipboard';
import { LoadSequence, writeDocument } from './documentFiles';
import { localProblems, mergeProblems } from './documentProblems';
import type { DocumentState } from './documentState';
import { selectionFollowsEdit } from './selectionFollowsEdits';
import { EMPTY_HISTORY, type UndoHistory } from './undoHistory';

export type SetDocumentState = StoreApi<DocumentState>['setState'];
export type GetDocumentState = StoreApi<DocumentState>['getState'];

/** The per-document state before a document is read, or after it is closed. */
export const NO_DOCUMENT = {
  doc: undefined,
  unreadable: undefined,
  problems: [],
  hostProblems: [],
  history: EMPTY_HISTORY,
  saveState: 'saved',
  saveError: undefined,
  blockedOpen: undefined,
  rejection: undefined,
} satisfies Partial<DocumentState>;

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * What the document store's actions share, owned by the store: the state accessors, autosave timing
 * (autosave.ts), the load sequence and the clipboard, and the one way a new document version lands.
 */
export interface DocumentSession {
  readonly set: SetDocumentState;
  readonly get: GetDocumentState;
  readonly autosave: Autosave;
  readonly loads: LoadSequence;
  readonly clipboard: DocumentClipboard;
  /** The problems of `doc`: the local check's, with those only the host reports. */
  problemsOf(doc: unknown, hostProblems?: Problem[]): Problem[];
  /** Forgets the open document's pending state (a load under way, the scheduled save). */
  reset(): void;
  /** A new current document: history, problems, selection and autosave follow. */
  commit(doc: DocumentDraft, history: UndoHistory): void;
}

export function createDocumentSession(set: SetDocumentState, get: GetDocumentState): DocumentSession {
  const problemsOf = (doc: unknown, hostProblems = get().hostProblems) => mergeProblems(localProblems(doc), hostProblems);
  const autosave = new Autosave(() => startAutosave(set, get, problemsOf));
  const loads = new LoadSequence();
  return {
    set,
    get,
    autosave,
    loads,
    clipboard: new DocumentClipboard(),
    problemsOf,
    reset() {
      loads.next();
      autosave.reset();
    },
    commit(doc, history) {
      const before = get().doc;
      set({ doc, history, problems: problemsOf(doc), saveState: 'unsaved' });
      selectionFollowsEdit(before, doc);
      autosave.schedule();
    },
  };
}

/** Writes the document as it is now; the outcome lands in the state unless another one was opened meanwhile. */
function startAutosave(set: SetDocumentState, get: GetDocumentState, problemsOf: DocumentSession['problemsOf']) {
  const { path, doc } = get();
  if (!path || doc === undefined) return undefined;
  set({ saveState: 'saving' });
  return async () => {
    try {
      const hostProblems = await writeDocument(path, doc);
      if (get().path !== path) return 'stale' as const;
      set({ hostProblems, ...(get().doc === doc ? { saveState: 'saved', saveError: undefined, blockedOpen: undefined, problems: problemsOf(doc, hostProblems) } : {}) });
      return 'saved' as const;
    } catch (error) {
      if (get().path !== path) return 'stale' as const;
      set({ saveState: 'error', saveError: errorMessage(error) });
      return 'failed' as const;
    }
  };
}
