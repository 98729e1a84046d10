import type { CrewDraft } from './crewDraft';

/**
 * One editing action (Excalidraw-style): `perform` is pure and returns the next document, or the same
 * object when nothing changes (nothing is recorded then). The document store keeps the history, so
 * every command is undoable.
 */
export interface Command {
  readonly label: string;
  /**
   * Consecutive commands with the same key merge into one undo step (typing into one field). The store
   * seals the step when the field loses focus or another command runs.
   */
  readonly coalesceKey?: string;
  perform(doc: CrewDraft): CrewDraft;
}

/** A command that cannot apply to this document; the message says why, for the person. */
export class CommandRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandRejected';
  }
}

/** Several commands as one undo step, applied in order. */
export function composeCommands(label: string, commands: Command[]): Command {
  return {
    label,
    perform: (doc) => commands.reduce((current, command) => command.perform(current), doc),
  };
}
