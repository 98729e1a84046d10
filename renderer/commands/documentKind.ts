/** The kinds of document the editor opens: a crew (`kind: "crew"`, or no kind) or a flow (`kind: "flow"`). */
export type DocumentKind = 'crew' | 'flow';

/** A document of one kind met where the other was needed (a command for a crew sent to a flow, say). */
export class WrongDocumentKind extends Error {
  constructor(
    readonly expected: DocumentKind,
    readonly actual: DocumentKind,
    what = 'This edit',
  ) {
    super(`${what} applies to a ${expected}, but the open document is a ${actual}.`);
    this.name = 'WrongDocumentKind';
  }
}
