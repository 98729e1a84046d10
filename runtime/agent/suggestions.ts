/**
 * Trained suggestions as a run applies them (SPEC §6): each role's active version, appended to that
 * role's task prompts. Training (runtime/training) makes and stores them; runs only read them, so the
 * shapes live here, below both.
 */
export type ActiveSuggestions = Map<string, { version: number; suggestions: string[] }>;

/** Where a run reads the trained suggestions it applies. */
export interface SuggestionSource {
  /** Each role's active version for the crew; read once when a crew's context is made. */
  activeSuggestions(crewId: string): ActiveSuggestions;
}
