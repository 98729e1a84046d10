import type { DocumentCommand } from './command';
import type { DocumentDraft } from './documentDraft';
import { WrongDocumentKind } from './documentKind';
import { isFlowDraft } from './flow/flowDraft';

/**
 * `command` performed on `doc` when it is of the kind the command declares; throws `WrongDocumentKind`
 * (nothing changes) when it is not. The narrowing here is what lets crew and flow commands share one
 * history without converting between document kinds.
 */
export function applyCommand(doc: DocumentDraft, command: DocumentCommand): DocumentDraft {
  if (command.kind === 'flow') {
    if (!isFlowDraft(doc)) throw new WrongDocumentKind('flow', 'crew', `"${command.label}"`);
    return command.perform(doc);
  }
  if (isFlowDraft(doc)) throw new WrongDocumentKind('crew', 'flow', `"${command.label}"`);
  return command.perform(doc);
}
