import { errorMessage } from '../errors';
import type { SuggestionSource } from '../agent/suggestions';
import { TrainingStore } from './trainingStore';

export type { SuggestionSource };

/** Suggestions could not be read: the run stops before it opens rather than running without them unnoticed. */
export class SuggestionsUnreadable extends Error {
  override name = 'SuggestionsUnreadable';
}

/**
 * The workspace's suggestions, read from its database (`.crewdeck/crewdeck.db`) at every call, so a
 * version activated, edited or rolled back a moment ago (by the CLI, the app) applies to the next run.
 * A workspace without a database has none.
 */
export function workspaceSuggestions(workspace: string): SuggestionSource {
  return {
    activeSuggestions(crewId) {
      let store: TrainingStore | undefined;
      try {
        store = TrainingStore.openExisting(workspace);
        return store?.activeSuggestions(crewId) ?? new Map();
      } catch (error) {
        throw new SuggestionsUnreadable(`cannot read the trained suggestions of crew "${crewId}" in ${workspace}: ${errorMessage(error)}`);
      } finally {
        store?.close();
      }
    },
  };
}

/** No suggestions at all. */
export const noSuggestions: SuggestionSource = { activeSuggestions: () => new Map() };
