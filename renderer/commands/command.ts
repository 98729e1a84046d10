import type { DraftOfKind } from './documentDraft';
import type { DocumentKind } from './documentKind';

/**
 * One editing action (Excalidraw-style): `perform` is pure and returns the next document, or the same
 * object when nothing changes (nothing is recorded then). The document store keeps the history, so
 * every command is undoable. A command declares the kind of document it edits (`kind`); the store
 * refuses one sent to a document of the other kind (`WrongDocumentKind`).
 */
interface CommandBase {
  readonly label: string;
  /**
   * Consecutive commands with the same key merge into one undo step (typing into one field). The store
   * seals the step when the field loses focus or another command runs.
   */
  readonly coalesceKey?: string;
}

/** A command for one kind of document: `Command<'flow'>` a flow's, `Command` (`Command<'crew'>`) a crew's. */
export interface Command<K extends DocumentKind = 'crew'> extends CommandBase {
  readonly kind: K;
  perform(doc: DraftOfKind[K]): DraftOfKind[K];
}

export type CrewCommand = Command<'crew'>;
export type FlowCommand = Command<'flow'>;

/** A command for either kind of document: what the document store performs (and refuses for the other kind). */
export type DocumentCommand = CrewCommand | FlowCommand;

/** A command that cannot apply to this document; the message says why, for the person. */
export class CommandRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandRejected';
  }
}

/** Several commands for one kind of document as one undo step, applied in order. */
export function composeCommands<K extends DocumentKind>(label: string, commands: readonly [Command<K>, ...Command<K>[]]): Command<K> {
  return {
    kind: commands[0].kind,
    label,
    perform: (doc) => commands.reduce((current, command) => command.perform(current), doc),
  };
}
