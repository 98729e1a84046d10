import { create } from 'zustand';
import type { Problem } from '../../shared/model/problems';
import { withFullLayout } from '../commands/fullLayout';
import { withFlowFullLayout } from '../commands/flow/flowLayout';
import { CommandRejected, type Command } from '../commands/command';
import type { CrewDraft } from '../commands/crewDraft';
import { isFlowDocument } from '../model/documentKind';
import { Autosave } from './autosave';
import { DocumentClipboard } from './documentClipboard';
import { LoadSequence, parseDocumentText, readDocument, renameDocument, trashDocument, writeDocument, type Unreadable } from './documentFiles';
import { localProblems, mergeProblems } from './documentProblems';
import { clearSelection, selectionFollowsEdit } from './selectionFollowsEdits';
import { EMPTY_HISTORY, recordEdit, redoStep, sealHistory, undoStep, type UndoHistory } from './undoHistory';
import { useUiStore } from './uiStore';

export type { Unreadable } from './documentFiles';
export type SaveState = 'saved' | 'saving' | 'unsaved' | 'error';
export type LoadState = 'idle' | 'loading' | 'ready' | 'error';
export type PerformResult = { ok: true; changed: boolean } | { ok: false; reason: string };

/**
 * The open document. This store composes the parts that do the work, each owned here: the undo
 * history (undoHistory.ts, a value in the state), autosave timing (autosave.ts), the host calls that
 * read, write, rename and delete the file (documentFiles.ts) and the clipboard (documentClipboard.ts).
 */
export interface DocumentState {
  /** Workspace-relative path of the open document: the one owner of "which document is open". */
  path?: string;
  loadState: LoadState;
  loadError?: string;
  /**
   * The open document (a crew or a flow) as edited, possibly invalid; autosaved shortly after each change, so
   * it can be ahead of the file (`saveState`). Undefined until loaded, or while the file is not a JSON object.
   */
  doc?: CrewDraft;
  unreadable?: Unreadable;
  /** Validation problems of `doc` (`path.to.field: message`), checked after every change. */
  problems: Problem[];
  /** Problems only the host reports for the document last saved or read (kept in `problems` until the next save answers). */
  hostProblems: Problem[];
  /** Undo history: each step a patch pair. Selection and viewport are not recorded. */
  history: UndoHistory;
  saveState: SaveState;
  /** Why the last save failed (while `saveState` is 'error'); it is retried with a growing delay. */
  saveError?: string;
  /** A document the person asked to open while this one could not be saved: it stays open until saved or discarded. */
  blockedOpen?: string;
  /** The last command the document refused (e.g. a connection to a later task), for the canvas to show. */
  rejection?: { message: string; at: number };

  /**
   * Opens a document, after saving the pending changes of the current one. When they cannot be saved
   * the current document stays open (with `blockedOpen` set) instead of dropping them; `discard`
   * skips that save and drops them.
   */
  load(path: string, options?: { discard?: boolean }): Promise<void>;
  /**
   * What the person asks for (sidebar, palette, import): the canvas view with `path` open, or no
   * document. An already open document is not read again.
   */
  open(path: string | undefined): Promise<void>;
  /** No document open any more (it was deleted, or the person closed it): nothing pending is saved. */
  close(): void;
  /**
   * Renames the open document on disk and keeps it open with its undo history: pending changes are
   * saved first (to the old path), later ones go to the new path. Throws when the host refuses.
   */
  renameTo(newPath: string): Promise<void>;
  /** Moves the open document to the workspace trash and closes it; nothing pending is written back. Throws when the host refuses. */
  deleteDocument(): Promise<void>;
  /** Saves again now; once saved, opens the document that was waiting (`blockedOpen`), if any. */
  retrySave(): Promise<void>;
  /** Drops the unsaved changes: opens the waiting document, or reads the current one again from disk. */
  discardChanges(): Promise<void>;
  perform(command: Command): PerformResult;
  undo(): void;
  redo(): void;
  /** Ends the current coalesced edit (a text field lost focus): the next edit is a new undo step. */
  sealHistory(): void;
  /** Copies the agents and tasks among `nodeIds`; false when there is nothing to copy. */
  copy(nodeIds: readonly string[]): boolean;
  paste(): PerformResult;
  /** Repairs an unreadable file from edited text: adopted (and saved) once it is a JSON object. */
  replaceText(text: string): { ok: true } | { ok: false; error: string };
  /** Saves now if anything is unsaved (or the last save failed); resolves when every save sent so far has answered. */
  flushSave(): Promise<void>;
  dismissRejection(): void;
}

export const selectCanUndo = (s: DocumentState) => s.history.past.length > 0;
export const selectCanRedo = (s: DocumentState) => s.history.future.length > 0;

/** The per-document state before a document is read, or after it is closed. */
const NO_DOCUMENT = {
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

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const useDocumentStore = create<DocumentState>()((set, get) => {
  const problemsOf = (doc: unknown, hostProblems = get().hostProblems) => mergeProblems(localProblems(doc), hostProblems);

  /** Writes the document as it is now; the outcome lands in the state unless another one was opened meanwhile. */
  const autosave = new Autosave(() => {
    const { path, doc } = get();
    if (!path || doc === undefined) return undefined;
    set({ saveState: 'saving' });
    return async () => {
      try {
        const hostProblems = await writeDocument(path, doc);
        if (get().path !== path) return 'stale';
        set({ hostProblems, ...(get().doc === doc ? { saveState: 'saved', saveError: undefined, blockedOpen: undefined, problems: problemsOf(doc, hostProblems) } : {}) });
        return 'saved';
      } catch (error) {
        if (get().path !== path) return 'stale';
        set({ saveState: 'error', saveError: message(error) });
        return 'failed';
      }
    };
  });
  const loads = new LoadSequence();
  const clipboard = new DocumentClipboard();

  /** Forgets the open document's pending state (a load under way, the scheduled save). */
  const reset = () => {
    loads.next();
    autosave.reset();
  };

  /** A new current document: history, problems, selection and autosave follow. */
  const commit = (doc: CrewDraft, history: UndoHistory) => {
    const before = get().doc;
    set({ doc, history, problems: problemsOf(doc), saveState: 'unsaved' });
    selectionFollowsEdit(before, doc);
    autosave.schedule();
  };

  // A closing window still sends what is pending (the request leaves synchronously).
  if (typeof window !== 'undefined') {
    window.addEventListener('beforeunload', () => {
      if (autosave.pending) void get().flushSave();
    });
  }

  return {
    loadState: 'idle',
    ...NO_DOCUMENT,

    async load(path, options = {}) {
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
      reset();
      ticket = loads.next();
      if (path !== get().path) clearSelection();
      set({ path, loadState: 'loading', loadError: undefined, ...NO_DOCUMENT });
      try {
        const read = await readDocument(path);
        if (!loads.isLatest(ticket)) return;
        if ('unreadable' in read) {
          set({ loadState: 'ready', unreadable: read.unreadable, problems: [{ path: '(document)', message: read.unreadable.error }] });
        } else {
          set({ loadState: 'ready', doc: read.doc, hostProblems: read.hostProblems, problems: problemsOf(read.doc, read.hostProblems) });
        }
      } catch (error) {
        if (!loads.isLatest(ticket)) return;
        set({ loadState: 'error', loadError: message(error) });
      }
    },

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
      reset();
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

    perform(command) {
      const { doc, history } = get();
      if (doc === undefined) return { ok: false, reason: 'No crew is open.' };
      let next: CrewDraft;
      try {
        // Nodes placed by the auto-layout keep their place once the person starts editing.
        const base = isFlowDocument(doc) ? withFlowFullLayout(doc) : withFullLayout(doc);
        next = command.perform(base);
        if (next === base) next = doc;
      } catch (error) {
        if (error instanceof CommandRejected) {
          set({ rejection: { message: error.message, at: Date.now() } });
          return { ok: false, reason: error.message };
        }
        throw error;
      }
      if (next === doc) return { ok: true, changed: false };
      commit(next, recordEdit(history, doc, next, command));
      return { ok: true, changed: true };
    },

    undo() {
      const { doc, history } = get();
      const step = doc === undefined ? undefined : undoStep(history, doc);
      if (step) commit(step.doc, step.history);
    },

    redo() {
      const { doc, history } = get();
      const step = doc === undefined ? undefined : redoStep(history, doc);
      if (step) commit(step.doc, step.history);
    },

    sealHistory() {
      const sealed = sealHistory(get().history);
      if (sealed !== get().history) set({ history: sealed });
    },

    copy(nodeIds) {
      return clipboard.copy(get().doc, nodeIds);
    },

    paste() {
      const pasted = clipboard.paste(get().doc);
      return 'refused' in pasted ? { ok: false, reason: pasted.refused } : get().perform(pasted.command);
    },

    replaceText(text) {
      if (!get().unreadable) return { ok: false, error: 'The document is already open.' };
      const parsed = parseDocumentText(text);
      if ('error' in parsed) {
        set({ unreadable: { text, error: parsed.error }, problems: [{ path: '(document)', message: parsed.error }] });
        return { ok: false, error: parsed.error };
      }
      set({ unreadable: undefined });
      commit(parsed.doc, EMPTY_HISTORY);
      return { ok: true };
    },

    flushSave() {
      return autosave.flush(get().saveState === 'error');
    },

    dismissRejection() {
      set({ rejection: undefined });
    },
  };
});
