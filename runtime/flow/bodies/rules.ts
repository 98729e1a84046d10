import { describePredicate, testPredicate } from '../predicate';
import type { BodyRunner } from './types';

/** The first rule whose test holds picks the route; none does: the default. */
export const runRules: BodyRunner<'rules'> = async (body, scope) => {
  const index = body.rules.findIndex((r) => testPredicate(r.when, scope));
  const rule = index >= 0 ? body.rules[index] : undefined;
  return {
    kind: 'done',
    output: scope.input ?? '',
    route: rule ? rule.route : body.default,
    routeReason: rule ? `rule ${index + 1} holds: ${describePredicate(rule.when)}` : `no rule holds (${body.rules.length} tested); the default route`,
  };
};
