import { create } from 'zustand';
import type { Problem } from '../../shared/model/problems';
import { withFullLayout } from '../commands/fullLayout';
import { withFlowFullLayout } from '../commands/flow/flowLayout';
import { copyNodes, type Clipboard } from '../commands/clipboard';
import { CommandRejected, type Command } from '../commands/command';
import { isRecord, type CrewDraft } from '../commands/crewDraft';
import { documentNodeIds } from '../commands/nodeRefs';
import { pasteNodes } from '../commands/pasteNodes';
import { host } from '../host/hostContext';
import { isFlowDocument } from '../model/documentKind';
import { hostOnlyProblems, localProblems, mergeProblems } from './documentProblems';
import { useUiStore } from './uiStore';

export type SaveState = 'saved' | 'saving' | 'unsaved' | 'error';
export type LoadState = 'idle' | 'loading' | 'ready' | 'error';
export type PerformResult = { ok: true; changed: boolean } | { ok: false; reason: string };

/** A file that is not a JSON object: its text and why, so it can be shown and repaired, never overwritten. */
export type Unreadable = { text: string; error: string };

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
  /** Undo history: earlier documents, oldest first. Selection and viewport are not recorded. */
  past: CrewDraft[];
  future: CrewDraft[];
  saveState: SaveState;
  /** Why the last save failed (while `saveState` is 'error'); it is retried with a growing delay. */
  saveError?: string;
  /** A document the person asked to open while this one could not be saved: it stays open until saved or discarded. */
  blockedOpen?: string;
  /** The last command the document refused (e.g. a connection to a later task), for the canvas to show. */
  rejection?: { message: string; at: number };
  clipboard?: Clipboard;

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

export const selectCanUndo = (s: DocumentState) => s.past.length > 0;
export const selectCanRedo = (s: DocumentState) => s.future.length > 0;

/** The per-document state before a document is read, or after it is closed. */
const NO_DOCUMENT = {
  doc: undefined,
  unreadable: undefined,
  problems: [],
  past: [],
  future: [],
  saveState: 'saved',
  saveError: undefined,
  blockedOpen: undefined,
  rejection: undefined,
} satisfies Partial<DocumentState>;

const HISTORY_LIMIT = 200;
export const AUTOSAVE_DELAY_MS = 500;
/** Delays before saving again after the 1st, 2nd, 3rd… failed save in a row (the last one repeats). */
export const SAVE_RETRY_DELAYS_MS = [1000, 2000, 5000, 10000];

let lastCoalesceKey: string | undefined;
/** The next save (autosave after an edit, or a retry after a failure). */
let saveTimer: ReturnType<typeof setTimeout> | undefined;
let saveChain: Promise<void> = Promise.resolve();
let failedSaves = 0;
/** Set while the open document is renamed or deleted: saves wait, then go to wherever it is then (or nowhere). */
let moving: Promise<void> | undefined;
let loadSeq = 0;
/** Problems only the host reports for the document last saved or read. */
let hostExtras: Problem[] = [];

export const useDocumentStore = create<DocumentState>()((set, get) => {
  const problemsOf = (doc: unknown) => mergeProblems(localProblems(doc), hostExtras);

  const scheduleSave = (delay = AUTOSAVE_DELAY_MS) => {
    cancelSave();
    saveTimer = setTimeout(() => {
      saveTimer = undefined;
      void save();
    }, delay);
  };

  const save = (): Promise<void> => {
    if (moving) return moving.then(save);
    const { path, doc } = get();
    if (!path || doc === undefined) return saveChain;
    set({ saveState: 'saving' });
    saveChain = saveChain.then(async () => {
      try {
        const response = await host().invoke('documents.save', { path, document: doc });
        if (get().path !== path) return;
        failedSaves = 0;
        hostExtras = hostOnlyProblems(response.problems, localProblems(doc));
        if (get().doc === doc) set({ saveState: 'saved', saveError: undefined, blockedOpen: undefined, problems: problemsOf(doc) });
      } catch (error) {
        if (get().path !== path) return;
        failedSaves += 1;
        set({ saveState: 'error', saveError: error instanceof Error ? error.message : String(error) });
        // Try again by itself (the disk may come back); a newer edit's autosave counts as the retry.
        if (saveTimer === undefined) scheduleSave(SAVE_RETRY_DELAYS_MS[Math.min(failedSaves, SAVE_RETRY_DELAYS_MS.length) - 1]);
      }
    });
    return saveChain;
  };

  /** Forgets the open document's pending state (timers, coalescing, host-only problems). */
  const reset = () => {
    loadSeq += 1;
    cancelSave();
    failedSaves = 0;
    lastCoalesceKey = undefined;
    hostExtras = [];
  };

  /** Runs a move of the open file on disk; saves wait until `then` has applied its outcome to the store. */
  const holdSaves = async <T>(task: () => Promise<T>, then: (result: T) => void): Promise<void> => {
    let release!: () => void;
    moving = new Promise<void>((resolve) => (release = resolve));
    try {
      then(await task());
    } finally {
      moving = undefined;
      release();
    }
  };

  /** A new current document: history, problems, selection and autosave follow. */
  const commit = (doc: CrewDraft, history: Pick<DocumentState, 'past' | 'future'>) => {
    const before = get().doc;
    set({ doc, ...history, problems: problemsOf(doc), saveState: 'unsaved' });
    syncSelection(before, doc);
    scheduleSave();
  };

  return {
    loadState: 'idle',
    problems: [],
    past: [],
    future: [],
    saveState: 'saved',

    async load(path, options = {}) {
      let seq = ++loadSeq;
      if (!options.discard) {
        await get().flushSave();
        if (seq !== loadSeq) return;
        const current = get();
        if (current.saveState === 'error' && current.path !== undefined && current.doc !== undefined) {
          // Switching now would drop edits that are on no disk: keep them open, and say so (SaveErrorBanner).
          if (path !== current.path) set({ blockedOpen: path });
          return;
        }
      }
      reset();
      seq = loadSeq;
      if (path !== get().path) clearSelection();
      set({
        path,
        loadState: 'loading',
        loadError: undefined,
        ...NO_DOCUMENT,
      });
      try {
        const response = await host().invoke('documents.read', { path });
        if (seq !== loadSeq) return;
        if (!isRecord(response.document)) {
          const error =
            response.document === null
              ? (response.problems[0]?.message ?? 'the file is not JSON')
              : 'the document is not a JSON object';
          set({ loadState: 'ready', unreadable: { text: response.text, error }, problems: [{ path: '(document)', message: error }] });
          return;
        }
        const doc = response.document as CrewDraft;
        hostExtras = hostOnlyProblems(response.problems, localProblems(doc));
        set({ loadState: 'ready', doc, problems: problemsOf(doc) });
      } catch (error) {
        if (seq !== loadSeq) return;
        set({ loadState: 'error', loadError: error instanceof Error ? error.message : String(error) });
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
      set({
        path: undefined,
        loadState: 'idle',
        loadError: undefined,
        ...NO_DOCUMENT,
      });
    },

    async renameTo(newPath) {
      const path = get().path;
      if (path === undefined) throw new Error('No document is open.');
      await get().flushSave();
      if (get().path !== path) throw new Error(`${path} is no longer open.`);
      if (get().saveState === 'error') throw new Error(`${path} could not be saved, so it was not renamed: ${get().saveError}`);
      await holdSaves(
        () => host().invoke('documents.rename', { path, newPath }),
        (response) => {
          if (get().path !== path) return;
          set({ path: response.path });
        },
      );
    },

    async deleteDocument() {
      const path = get().path;
      if (path === undefined) return;
      // The trash keeps the latest version (when it can be saved; deleting goes ahead either way).
      await get().flushSave();
      await holdSaves(
        () => host().invoke('documents.delete', { path }),
        () => {
          if (get().path !== path) return;
          get().close();
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
      const { doc, past } = get();
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
      const coalesce = command.coalesceKey !== undefined && command.coalesceKey === lastCoalesceKey && past.length > 0;
      lastCoalesceKey = command.coalesceKey;
      commit(next, { past: coalesce ? past : [...past, doc].slice(-HISTORY_LIMIT), future: [] });
      return { ok: true, changed: true };
    },

    undo() {
      const { doc, past, future } = get();
      if (doc === undefined || past.length === 0) return;
      lastCoalesceKey = undefined;
      commit(past[past.length - 1], { past: past.slice(0, -1), future: [doc, ...future] });
    },

    redo() {
      const { doc, past, future } = get();
      if (doc === undefined || future.length === 0) return;
      lastCoalesceKey = undefined;
      commit(future[0], { past: [...past, doc], future: future.slice(1) });
    },

    sealHistory() {
      lastCoalesceKey = undefined;
    },

    copy(nodeIds) {
      const { doc } = get();
      const clipboard = doc ? copyNodes(doc, nodeIds) : undefined;
      if (!clipboard) return false;
      pasteCount = 0;
      set({ clipboard });
      return true;
    },

    paste() {
      const { clipboard, doc } = get();
      if (!clipboard) return { ok: false, reason: 'Nothing copied yet.' };
      // The clipboard holds agents and tasks: they do not belong in a flow.
      if (isFlowDocument(doc)) return { ok: false, reason: 'Copied agents and tasks cannot be pasted into a flow.' };
      pasteCount += 1;
      return get().perform(pasteNodes(clipboard, { x: 40 * pasteCount, y: 40 * pasteCount }));
    },

    replaceText(text) {
      if (!get().unreadable) return { ok: false, error: 'The document is already open.' };
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        const message = `invalid JSON: ${(error as Error).message}`;
        set({ unreadable: { text, error: message }, problems: [{ path: '(document)', message }] });
        return { ok: false, error: message };
      }
      if (!isRecord(value)) {
        const message = 'the document is not a JSON object';
        set({ unreadable: { text, error: message }, problems: [{ path: '(document)', message }] });
        return { ok: false, error: message };
      }
      lastCoalesceKey = undefined;
      set({ unreadable: undefined });
      commit(value as CrewDraft, { past: [], future: [] });
      return { ok: true };
    },

    async flushSave() {
      const pending = saveTimer !== undefined || get().saveState === 'error';
      cancelSave();
      await (pending ? save() : (moving ?? saveChain).then(() => saveChain));
    },

    dismissRejection() {
      set({ rejection: undefined });
    },
  };
});

let pasteCount = 0;

function clearSelection(): void {
  if (useUiStore.getState().selectedNodeIds.length > 0) useUiStore.getState().select([]);
}

function cancelSave(): void {
  if (saveTimer !== undefined) clearTimeout(saveTimer);
  saveTimer = undefined;
}

/** New nodes (added, pasted, renamed) become the selection; deleted ones leave it. */
function syncSelection(before: CrewDraft | undefined, after: CrewDraft): void {
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

// A closing window still sends what is pending (the request leaves synchronously).
if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', () => {
    if (saveTimer !== undefined) void useDocumentStore.getState().flushSave();
  });
}
