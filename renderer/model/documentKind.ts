/** Whether a document (as saved, possibly invalid) is a flow (`kind: "flow"`) rather than a crew. */
export function isFlowDocument(doc: unknown): boolean {
  return typeof doc === 'object' && doc !== null && (doc as { kind?: unknown }).kind === 'flow';
}
