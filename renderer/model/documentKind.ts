import { isFlowDraft } from '../commands/flow/flowDraft';

/** Whether a document (as saved, possibly invalid) is a flow (`kind: "flow"`) rather than a crew. */
export const isFlowDocument = isFlowDraft;
