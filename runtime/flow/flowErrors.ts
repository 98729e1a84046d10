/** Errors of flow runs (apart, so importing them loads nothing else). */

/** A flow ran more methods than its `maxMethodCalls`: almost always a loop through routes. */
export class FlowLoopLimit extends Error {
  override name = 'FlowLoopLimit';
}
/** The state broke the flow's state schema. */
export class FlowStateInvalid extends Error {
  override name = 'FlowStateInvalid';
}
/** A router's body chose no route, or one it does not have. */
export class FlowRouteInvalid extends Error {
  override name = 'FlowRouteInvalid';
}
/** `resume` was asked of a run that cannot continue (finished, not a flow, no checkpoint, no feedback given). */
export class FlowNotResumable extends Error {
  override name = 'FlowNotResumable';
}
