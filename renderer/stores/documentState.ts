import type { Problem } from '../../shared/model/problems';
import type { DocumentAction, PerformResult } from '../commands/documentAction';
import type { DocumentCommand } from '../commands/command';
import type { DocumentDraft } from '../commands/documentDraft';
import type { Unreadable } from './documentFiles';
import type { UndoHistory } from './undoHistory';

export type SaveState = 'saved' | 'saving' | 'unsaved' | 'error';
export type LoadState = 'idle' | 'loading' | 'ready' | 'error';

/**
 * The open document, as the document store holds it (documentStore.ts). Its file actions
 * (documentFileActions.ts) open, save, rename and delete it; its edit actions (documentEditActions.ts)
 * run the commands that change it, undo and redo them, and copy and paste.
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
  doc?: DocumentDraft;
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
  /**
   * Runs an action on the open document: an edit, undo, redo, copy or paste (commands/documentAction.ts).
   * An edit for the other kind of document (a crew command on a flow) is refused with `WrongDocumentKind`.
   */
  run(action: DocumentAction): PerformResult;
  /** `run` of an edit. */
  perform(command: DocumentCommand): PerformResult;
  /** `run` of an undo step. */
  undo(): void;
  /** `run` of a redo step. */
  redo(): void;
  /** Ends the current coalesced edit (a text field lost focus): the next edit is a new undo step. */
  sealHistory(): void;
  /** Copies the agents and tasks among `nodeIds`; false when there is nothing to copy. */
  copy(nodeIds: readonly string[]): boolean;
  /** `run` of a paste: the clipboard's agents and tasks added, as one undo step. */
  paste(): PerformResult;
  /** Repairs an unreadable file from edited text: adopted (and saved) once it is a JSON object. */
  replaceText(text: string): { ok: true } | { ok: false; error: string };
  /** Saves now if anything is unsaved (or the last save failed); resolves when every save sent so far has answered. */
  flushSave(): Promise<void>;
  dismissRejection(): void;
}
