import { isLiveOnly, type RuntimeEvent } from '../../shared/events';
import { RunDraft } from './fold/runDraft';
import { foldEvent } from './fold/runFolds';
import type { RunView } from './runView';

/** Folds one event into a run view. Pure: the given view is not changed. */
export function reduceRunEvent(state: RunView, event: RuntimeEvent): RunView {
  return foldRunEvents(state, [event]);
}

/**
 * Folds a batch of events into a run view, each by its family's fold (./fold/runFolds.ts). Pure towards
 * its input: everything the previous view holds is copied before it is changed, but each object at most
 * once per batch, so folding n events costs O(n) however they are batched. Events at or below the view's
 * last seq are ignored, except live-only events (stream deltas), which carry the seq of the stored event
 * they follow.
 */
export function foldRunEvents(state: RunView, events: readonly RuntimeEvent[]): RunView {
  const fresh = events.filter((e) => e.seq > state.lastSeq || (e.seq === state.lastSeq && isLiveOnly(e)));
  if (fresh.length === 0) return state;
  const draft = new RunDraft(state);
  for (const event of fresh) {
    draft.v.lastSeq = event.seq;
    draft.v.lastTs = event.ts;
    draft.v.eventCount += 1;
    foldEvent(draft, event);
  }
  return draft.finish();
}
