/**
 * Flow documents (`kind: "flow"`) can be listed and opened, but this version of Crewdeck edits only
 * crews: the canvas, the inspector and the document store leave a flow exactly as it is on disk.
 */
export function isFlowDocument(doc: unknown): boolean {
  return typeof doc === 'object' && doc !== null && (doc as { kind?: unknown }).kind === 'flow';
}
