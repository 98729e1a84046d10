import { describe, expect, it } from 'vitest';
import { EVENT_CATALOG } from '../../../shared/events/eventCatalog';
import { RUN_FOLDS } from '../../../renderer/stores/fold/runFolds';

describe('the run view’s folds', () => {
  it('fold (or say they ignore) every event of every family in the catalog, and no event outside it', () => {
    const missing: string[] = [];
    for (const [family, events] of Object.entries(EVENT_CATALOG)) {
      const folds = (RUN_FOLDS as Record<string, Record<string, unknown> | undefined>)[family];
      if (!folds) {
        missing.push(`family ${family}`);
        continue;
      }
      for (const type of Object.keys(events)) if (!(type in folds)) missing.push(type);
      for (const type of Object.keys(folds)) if (!(type in events)) missing.push(`${type} (not in the catalog)`);
    }
    expect(missing).toEqual([]);
    // The families whose events draw spans have real folds, not only nulls.
    for (const family of ['run', 'task', 'agent', 'llm', 'tool', 'delegation', 'guardrail', 'memory', 'flow', 'human'] as const) {
      expect(Object.values(RUN_FOLDS[family]).some((fold) => typeof fold === 'function')).toBe(true);
    }
  });
});
