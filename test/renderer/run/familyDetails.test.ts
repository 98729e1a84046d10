import { describe, expect, it } from 'vitest';
import { EVENT_CATALOG } from '../../../shared/events/eventCatalog';
import { FAMILY_DETAILS, SPAN_DETAILS } from '../../../renderer/panels/trace/spanDetails';
import { RUN_FOLDS } from '../../../renderer/stores/fold/runFolds';

describe('the trace’s details by event family', () => {
  it('name, for every family in the catalog, the span detail that shows its events, and only families of the catalog', () => {
    const families = Object.keys(EVENT_CATALOG);
    expect(Object.keys(FAMILY_DETAILS).sort()).toEqual([...families].sort());
    const unknownKinds = Object.entries(FAMILY_DETAILS).filter(([, kind]) => kind !== null && !(kind in SPAN_DETAILS));
    expect(unknownKinds).toEqual([]);
  });

  it('give every family the run view folds a place in the trace; only training and test sessions have none', () => {
    const folded = Object.entries(RUN_FOLDS)
      .filter(([, folds]) => Object.values(folds).some((fold) => typeof fold === 'function'))
      .map(([family]) => family);
    const withoutDetail = Object.entries(FAMILY_DETAILS).filter(([, kind]) => kind === null).map(([family]) => family);
    expect(withoutDetail.sort()).toEqual(['test', 'training']);
    expect(folded.filter((family) => withoutDetail.includes(family))).toEqual([]);
  });
});
