import { copyNodes, type Clipboard } from '../commands/clipboard';
import type { CrewCommand } from '../commands/command';
import type { DocumentDraft } from '../commands/documentDraft';
import { isFlowDraft } from '../commands/flow/flowDraft';
import { pasteNodes } from '../commands/pasteNodes';

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
  copy(doc: DocumentDraft | undefined, nodeIds: readonly string[]): boolean {
    // A flow has no agents or tasks to copy.
    const content = doc && !isFlowDraft(doc) ? copyNodes(doc, nodeIds) : undefined;
    if (!content) return false;
    this.content = content;
    this.pastes = 0;
    return true;
  }

  /** The command that pastes the copy into `doc`, or why it cannot be pasted there. */
  paste(doc: DocumentDraft | undefined): { command: CrewCommand } | { refused: string } {
    if (!this.content) return { refused: 'Nothing copied yet.' };
    // The clipboard holds agents and tasks: they do not belong in a flow.
    if (isFlowDraft(doc)) return { refused: 'Copied agents and tasks cannot be pasted into a flow.' };
    this.pastes += 1;
    const offset = PASTE_STEP * this.pastes;
    return { command: pasteNodes(this.content, { x: offset, y: offset }) };
  }
}
