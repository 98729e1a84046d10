import { CommandRejected, type FlowCommand } from '../command';
import { isList, withPatch } from '../crewDraft';
import { mapLeaves, routeOf } from './conditionTree';
import { bodyOf, methodIndexOf, methodsOf, routesOf, triggerOf, type MethodDraft } from './flowDraft';
import { triggerFor } from './listenerTrigger';

export const ROUTE_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Replaces `from` by `to` (or drops it, `to` undefined) in a router body's own references to its routes. */
function bodyWithRoute(body: Record<string, unknown>, from: string, to: string | undefined): Record<string, unknown> {
  if (body.type === 'rules') {
    const rules = isList(body.rules) ? body.rules : [];
    const nextRules = to === undefined ? rules : rules.map((r) => (r && typeof r === 'object' && (r as MethodDraft).route === from ? { ...(r as MethodDraft), route: to } : r));
    return withPatch(body, { rules: nextRules, default: body.default === from ? to : body.default });
  }
  if (body.type === 'human_feedback') {
    const outcomes = isList(body.outcomes) ? body.outcomes.flatMap((o) => (o === from ? (to === undefined ? [] : [to]) : [o])) : undefined;
    return withPatch(body, { outcomes: outcomes && outcomes.length > 0 ? outcomes : undefined, defaultOutcome: body.defaultOutcome === from ? to : body.defaultOutcome });
  }
  return body;
}

/** Listeners of `{ route: from }` now listen to `to` (dropped when `to` is undefined). */
function listenersWithRoute(methods: MethodDraft[], from: string, to: string | undefined, stillOffered: boolean): MethodDraft[] {
  if (stillOffered) return methods;
  return methods.map((m) => {
    const trigger = triggerOf(m);
    if (!('listen' in trigger)) return m;
    const listen = mapLeaves(trigger.listen, (leaf) => (routeOf(leaf) === from ? (to === undefined ? undefined : { route: to }) : leaf));
    return listen === trigger.listen ? m : withPatch(m, { trigger: to === undefined ? triggerFor(listen) : { ...trigger, listen } });
  });
}

/**
 * Renames a route label of the router drawn as `nodeId`: its body's rules/default/outcomes and every
 * listener of `{ route: old }` follow (unless another router still offers the old label).
 */
export function renameRoute(nodeId: string, from: string, to: string): FlowCommand {
  return {
    kind: 'flow',
    label: 'Rename route',
    perform(flow) {
      const index = methodIndexOf(flow, nodeId);
      const methods = methodsOf(flow);
      const method = methods[index];
      if (method === undefined || from === to) return flow;
      if (!ROUTE_PATTERN.test(to)) throw new CommandRejected('Route labels may only contain letters, digits, _ and -.');
      const routes = routesOf(method);
      if (!routes.includes(from)) return flow;
      if (routes.includes(to)) throw new CommandRejected(`This router already has the route "${to}".`);
      const renamed = withPatch(method, { routes: routes.map((r) => (r === from ? to : r)), body: bodyWithRoute(bodyOf(method), from, to) });
      const others = methods.some((m, i) => i !== index && routesOf(m).includes(from));
      const next = listenersWithRoute(methods.map((m, i) => (i === index ? renamed : m)), from, to, others);
      return { ...flow, methods: next };
    },
  };
}

/** Adds a route (a fresh `route-n` label unless given). */
export function addRoute(nodeId: string, label?: string): FlowCommand {
  return {
    kind: 'flow',
    label: 'Add route',
    perform(flow) {
      const index = methodIndexOf(flow, nodeId);
      const method = methodsOf(flow)[index];
      if (method === undefined) return flow;
      const routes = routesOf(method);
      let next = label;
      for (let n = routes.length + 1; next === undefined || routes.includes(next); n += 1) next = `route-${n}`;
      if (!ROUTE_PATTERN.test(next)) throw new CommandRejected('Route labels may only contain letters, digits, _ and -.');
      const body = bodyOf(method);
      const outcomes = body.type === 'human_feedback' && isList(body.outcomes) ? { body: withPatch(body, { outcomes: [...body.outcomes, next] }) } : {};
      const methods = methodsOf(flow).map((m, i) => (i === index ? withPatch(m, { routes: [...routes, next], ...outcomes }) : m));
      return { ...flow, methods };
    },
  };
}

/** Removes a route; listeners of it lose that reference (unless another router offers it) and rules that chose it go. */
export function removeRoute(nodeId: string, label: string): FlowCommand {
  return {
    kind: 'flow',
    label: 'Remove route',
    perform(flow) {
      const index = methodIndexOf(flow, nodeId);
      const methods = methodsOf(flow);
      const method = methods[index];
      if (method === undefined) return flow;
      const routes = routesOf(method);
      if (!routes.includes(label)) return flow;
      if (routes.length === 1 && bodyOf(method).type === 'rules') throw new CommandRejected('A rules router needs at least one route.');
      const left = routes.filter((r) => r !== label);
      let body = bodyWithRoute(bodyOf(method), label, undefined);
      if (body.type === 'rules') {
        const rules = (Array.isArray(body.rules) ? body.rules : []).filter((r) => !(r && typeof r === 'object' && (r as MethodDraft).route === label));
        body = withPatch(body, { rules, default: body.default ?? left[0] });
      }
      const updated = withPatch(method, { routes: left.length > 0 ? left : undefined, body });
      const others = methods.some((m, i) => i !== index && routesOf(m).includes(label));
      const next = listenersWithRoute(methods.map((m, i) => (i === index ? updated : m)), label, undefined, others);
      return { ...flow, methods: next };
    },
  };
}
