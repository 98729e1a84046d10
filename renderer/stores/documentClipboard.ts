import { copyNodes, type Clipboard } from '../commands/clipboard';
import type { Command } from '../commands/command';
import type { CrewDraft } from '../commands/crewDraft';
import { pasteNodes } from '../commands/pasteNodes';
import { isFlowDocument } from '../model/documentKind';

/** How far each paste of the same copy lands from the one before (canvas units). */
const PASTE_STEP = 40;

/**
 * The editor's clipboard of agents and tasks (kept across documents, not the system clipboard). Each
 * paste of one copy lands a step further off, so copies do not stack on each other. The document
 * store owns one; a paste is a command like any edit, so it is undoable.
 */
export class DocumentClipboard {
  private content: Clipboard | undefined;
  private pastes = 0;

  /** Copies the agents and tasks among `nodeIds`; false when there is nothing to copy. */
  copy(doc: CrewDraft | undefined, nodeIds: readonly string[]): boolean {
    const content = doc ? copyNodes(doc, nodeIds) : undefined;
    if (!content) return false;
    this.content = content;
    this.pastes = 0;
    return true;
  }

  /** The command that pastes the copy into `doc`, or why it cannot be pasted there. */
  paste(doc: CrewDraft | undefined): { command: Command } | { refused: string } {
    if (!this.content) return { refused: 'Nothing copied yet.' };
    // The clipboard holds agents and tasks: they do not belong in a flow.
    if (isFlowDocument(doc)) return { refused: 'Copied agents and tasks cannot be pasted into a flow.' };
    this.pastes += 1;
    const offset = PASTE_STEP * this.pastes;
    return { command: pasteNodes(this.content, { x: offset, y: offset }) };
  }
}
