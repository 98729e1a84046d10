/** A knowledge source could not be read, fetched or parsed; the message names the source and the problem. */
export class KnowledgeSourceError extends Error {
  override name = 'KnowledgeSourceError';
  constructor(
    /** How the source is written in the document: a path, a URL or `text "name"`. */
    readonly source: string,
    readonly problem: string,
  ) {
    super(`knowledge source ${source}: ${problem}`);
  }
}

/** The knowledge store was built with another embedder; its vectors cannot be compared with this one's. */
export class KnowledgeEmbedderMismatch extends Error {
  override name = 'KnowledgeEmbedderMismatch';
  constructor(
    readonly storedId: string,
    readonly requestedId: string,
  ) {
    super(
      `knowledge store was built with embedder "${storedId}" but was opened with "${requestedId}"; ` +
        'remove .crewdeck/knowledge to re-ingest with the new embedder, or use the original one',
    );
  }
}
