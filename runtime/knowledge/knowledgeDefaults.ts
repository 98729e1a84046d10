// The defaults of a knowledge query, kept apart from the store so that code which only needs them (a run
// configuring its agents) does not load LanceDB.

export const DEFAULT_KNOWLEDGE_LIMIT = 5;
export const DEFAULT_KNOWLEDGE_MIN_SCORE = 0.2;
