import type { FlowBodyKind } from '../../../shared/model/flow';

/** What the palette adds: a method with one of the body kinds, or a router (a rules body with two routes). */
export type MethodTemplate = FlowBodyKind | 'router';

/**
 * A body that validates as it is, for a method just added or switched to another kind. A start method's
 * (`start`) names no `{input}`: nothing triggers it, so there is none (flowChecks.ts reports it).
 */
export function defaultBody(kind: FlowBodyKind, routes: readonly string[] = [], start = false): Record<string, unknown> {
  if (start) {
    const body = startBody(kind);
    if (body) return body;
  }
  switch (kind) {
    case 'crew':
      return { type: 'crew', file: 'crews/my-crew.crew.json' };
    case 'agent':
      return {
        type: 'agent',
        agent: { role: 'Assistant', goal: 'Do the step well', backstory: '', tools: [] },
        prompt: 'Work on this: {input}',
      };
    case 'llm':
      return { type: 'llm', prompt: 'Summarise: {input}' };
    case 'for_each':
      return { type: 'for_each', items: '{state.items}', concurrency: 4, into: 'results', body: { type: 'llm', prompt: 'Work on item {index}: {item}' } };
    case 'human_feedback':
      return routes.length > 0 ? { type: 'human_feedback', message: 'Please review: {input}' } : { type: 'human_feedback', message: 'Please review: {input}', outcomes: ['approved', 'rejected'], defaultOutcome: 'approved' };
    case 'script':
      return { type: 'script', code: '// state and input are available; return the output.\nreturn input;\n' };
    case 'set_state':
      return { type: 'set_state', set: { last: '{input}' } };
    case 'rules': {
      const [first = 'yes', second = first === 'yes' ? 'no' : 'yes'] = routes;
      return { type: 'rules', rules: [{ when: { path: 'input', op: 'truthy' }, route: first }], default: second };
    }
  }
}

/** The start variant of the bodies whose default reads `{input}`. */
function startBody(kind: FlowBodyKind): Record<string, unknown> | undefined {
  switch (kind) {
    case 'agent':
      return { type: 'agent', agent: { role: 'Assistant', goal: 'Do the step well', backstory: '', tools: [] }, prompt: 'Introduce yourself in one sentence.' };
    case 'llm':
      return { type: 'llm', prompt: 'Write one short sentence to start with.' };
    case 'for_each':
      return { type: 'for_each', items: '["first", "second"]', concurrency: 4, into: 'results', body: { type: 'llm', prompt: 'Work on item {index}: {item}' } };
    case 'human_feedback':
      return { type: 'human_feedback', message: 'Ready to go on?', outcomes: ['approved', 'rejected'], defaultOutcome: 'approved' };
    case 'set_state':
      return { type: 'set_state', set: { step: 'started' } };
    default:
      return undefined;
  }
}

/** Bodies that can choose a route (a method with `routes` must have one of these). */
export const ROUTING_KINDS: ReadonlySet<string> = new Set(['rules', 'script', 'human_feedback']);

export const BODY_KIND_LABEL: Record<FlowBodyKind, string> = {
  crew: 'Crew',
  agent: 'Agent',
  llm: 'Model call',
  for_each: 'For each item',
  human_feedback: 'Human feedback',
  script: 'Script',
  set_state: 'Set state',
  rules: 'Rules',
};
