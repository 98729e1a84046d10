/** Errors of the memory store and its embedders (kept apart so that importing them loads no database or SDK). */

/** The store was created with another embedder; its vectors cannot be compared with this one's. */
export class EmbedderMismatch extends Error {
  override name = 'EmbedderMismatch';
  constructor(
    readonly storedId: string,
    readonly requestedId: string,
    readonly storedDimensions: number,
    readonly requestedDimensions: number,
  ) {
    super(
      `memory store was built with embedder "${storedId}" (${storedDimensions} dimensions) but was opened with ` +
        `"${requestedId}" (${requestedDimensions} dimensions); reset the memory or use the original embedder`,
    );
  }
}

/** No memory record has this id. */
export class MemoryNotFound extends Error {
  override name = 'MemoryNotFound';
  constructor(readonly id: string) {
    super(`no memory with id "${id}"`);
  }
}

/** An embeddings request failed for good (after retries, or with a status that is not retried), or is misconfigured. */
export class EmbeddingFailed extends Error {
  override name = 'EmbeddingFailed';
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The server answered, but not with what was asked: wrong vector count, wrong or mixed dimensions, bad numbers. */
export class EmbeddingResponseInvalid extends EmbeddingFailed {
  override name = 'EmbeddingResponseInvalid';
}
