import type { CrewDraft } from './crewDraft';
import type { DocumentKind } from './documentKind';
import { isFlowDraft, type FlowDraft } from './flow/flowDraft';

/** The open document as the editor holds it (the JSON as saved, possibly invalid): a crew or a flow, told apart by `kind`. */
export type DocumentDraft = CrewDraft | FlowDraft;

/** The draft type of each document kind. */
export interface DraftOfKind {
  crew: CrewDraft;
  flow: FlowDraft;
}

export function documentKindOf(doc: DocumentDraft): DocumentKind {
  return isFlowDraft(doc) ? 'flow' : 'crew';
}
