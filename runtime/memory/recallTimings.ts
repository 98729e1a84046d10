/**
 * Where one `recall` spent its time (ms), for the benchmark: the two searches run at once, so `searchMs`
 * (their wall time) is less than `vectorMs + fullTextMs`; each search's time includes scoring its hits
 * from the recall cache (for the vector search: the re-ranking).
 */
export interface RecallTimings {
  embeddingMs: number;
  vectorMs: number;
  fullTextMs: number;
  searchMs: number;
  fusionMs: number;
  scoringMs: number;
  totalMs: number;
}

/** The moments (`performance.now()`) a recall's steps began and ended. */
export interface RecallMarks {
  start: number;
  embedded: number;
  searchStarted: number;
  vectorDone: number;
  textDone: number;
  searched: number;
  fused: number;
  end: number;
}

export function recallTimings(marks: RecallMarks): RecallTimings {
  return {
    embeddingMs: marks.embedded - marks.start,
    vectorMs: marks.vectorDone - marks.searchStarted,
    fullTextMs: marks.textDone - marks.searchStarted,
    searchMs: marks.searched - marks.searchStarted,
    fusionMs: marks.fused - marks.searched,
    scoringMs: marks.end - marks.fused,
    totalMs: marks.end - marks.start,
  };
}
