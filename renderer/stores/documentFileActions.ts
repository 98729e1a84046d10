import { parseDocumentText, readDocument, renameDocument, trashDocument } from './documentFiles';
import { errorMessage, NO_DOCUMENT, type DocumentSession } from './documentSession';
import type { DocumentState } from './documentState';
import { clearSelection } from './selectionFollowsEdits';
import { EMPTY_HISTORY } from './undoHistory';
import { useUiStore } from './uiStore';

type FileActions = Pick<DocumentState, 'load' | 'open' | 'close' | 'renameTo' | 'deleteDocument' | 'retrySave' | 'discardChanges' | 'replaceText' | 'flushSave'>;

/** The document store's file actions: opening, reading, saving, renaming and deleting the open document. */
export function documentFileActions(session: DocumentSession): FileActions {
  const { set, get, autosave } = session;
  return {
    load: (path, options = {}) => loadDocument(session, path, options),

    async open(path) {
      if (useUiStore.getState().view !== 'canvas') useUiStore.getState().setView('canvas');
      if (path === undefined) {
        get().close();
        return;
      }
      clearSelection();
      if (path !== get().path) await get().load(path);
    },

    close() {
      session.reset();
      clearSelection();
      set({ path: undefined, loadState: 'idle', loadError: undefined, ...NO_DOCUMENT });
    },

    async renameTo(newPath) {
      const path = get().path;
      if (path === undefined) throw new Error('No document is open.');
      await get().flushSave();
      if (get().path !== path) throw new Error(`${path} is no longer open.`);
      if (get().saveState === 'error') throw new Error(`${path} could not be saved, so it was not renamed: ${get().saveError}`);
      await autosave.hold(
        () => renameDocument(path, newPath),
        (renamed) => {
          if (get().path === path) set({ path: renamed });
        },
      );
    },

    async deleteDocument() {
      const path = get().path;
      if (path === undefined) return;
      // The trash keeps the latest version (when it can be saved; deleting goes ahead either way).
      await get().flushSave();
      await autosave.hold(
        () => trashDocument(path),
        () => {
          if (get().path === path) get().close();
        },
      );
    },

    async retrySave() {
      const { path, blockedOpen } = get();
      await get().flushSave();
      if (get().saveState === 'error' || get().path !== path || blockedOpen === undefined) return;
      await get().load(blockedOpen);
    },

    async discardChanges() {
      const target = get().blockedOpen ?? get().path;
      if (target === undefined) return;
      await get().load(target, { discard: true });
    },

    replaceText(text) {
      if (!get().unreadable) return { ok: false, error: 'The document is already open.' };
      const parsed = parseDocumentText(text);
      if ('error' in parsed) {
        set({ unreadable: { text, error: parsed.error }, problems: [{ path: '(document)', message: parsed.error }] });
        return { ok: false, error: parsed.error };
      }
      set({ unreadable: undefined });
      session.commit(parsed.doc, EMPTY_HISTORY);
      return { ok: true };
    },

    flushSave() {
      return autosave.flush(get().saveState === 'error');
    },
  };
}

/**
 * Opens a document, after saving the pending changes of the current one (`DocumentState.load`).
 * When they cannot be saved the current document stays open, with `blockedOpen` set.
 */
async function loadDocument(session: DocumentSession, path: string, options: { discard?: boolean }): Promise<void> {
  const { set, get, loads } = session;
  let ticket = loads.next();
  if (!options.discard) {
    await get().flushSave();
    if (!loads.isLatest(ticket)) return;
    const current = get();
    if (current.saveState === 'error' && current.path !== undefined && current.doc !== undefined) {
      // Switching now would drop edits that are on no disk: keep them open, and say so (SaveErrorBanner).
      if (path !== current.path) set({ blockedOpen: path });
      return;
    }
  }
  session.reset();
  ticket = loads.next();
  if (path !== get().path) clearSelection();
  set({ path, loadState: 'loading', loadError: undefined, ...NO_DOCUMENT });
  try {
    const read = await readDocument(path);
    if (!loads.isLatest(ticket)) return;
    if ('unreadable' in read) {
      set({ loadState: 'ready', unreadable: read.unreadable, problems: [{ path: '(document)', message: read.unreadable.error }] });
    } else {
      set({ loadState: 'ready', doc: read.doc, hostProblems: read.hostProblems, problems: session.problemsOf(read.doc, read.hostProblems) });
    }
  } catch (error) {
    if (!loads.isLatest(ticket)) return;
    set({ loadState: 'error', loadError: errorMessage(error) });
  }
}
