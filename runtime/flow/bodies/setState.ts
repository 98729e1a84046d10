import { renderTemplate } from '../template';
import type { BodyRunner } from './types';

/** Assigns state fields from templates; passes its input on as its output. */
export const runSetState: BodyRunner<'set_state'> = async (body, scope) => {
  const set: Record<string, unknown> = {};
  for (const [field, template] of Object.entries(body.set)) {
    set[field] = renderTemplate(template, scope, `${scope.method.name}.set.${field}`);
  }
  return { kind: 'done', output: scope.input ?? '', set };
};
