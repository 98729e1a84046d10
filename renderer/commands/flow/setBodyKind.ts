import type { FlowBodyKind } from '../../../shared/model/flow';
import type { FlowCommand } from '../command';
import { withPatch } from '../crewDraft';
import { mapLeaves, routeOf } from './conditionTree';
import { defaultBody, ROUTING_KINDS } from './defaultBody';
import { bodyOf, isStart, methodIndexOf, methodsOf, routesOf, triggerOf } from './flowDraft';
import { triggerFor } from './listenerTrigger';

/**
 * Gives the method a default body of another kind; id, name, description and trigger stay. A prompt
 * carries over between model-call and agent bodies. A router switched to a kind that cannot route
 * loses its routes (and listeners lose their references to them); a switch to rules keeps the routes
 * it has, or gets `yes`/`no`.
 */
export function setBodyKind(nodeId: string, kind: FlowBodyKind): FlowCommand {
  return {
    kind: 'flow',
    label: 'Change body kind',
    perform(flow) {
      const index = methodIndexOf(flow, nodeId);
      const methods = methodsOf(flow);
      const method = methods[index];
      if (method === undefined) return flow;
      const old = bodyOf(method);
      if (old.type === kind) return flow;
      let routes = routesOf(method);
      if (kind === 'rules' && routes.length === 0) routes = ['yes', 'no'];
      const dropped = ROUTING_KINDS.has(kind) ? [] : routes;
      if (!ROUTING_KINDS.has(kind)) routes = [];
      let body = defaultBody(kind, routes, isStart(method));
      if ((kind === 'llm' || kind === 'agent') && typeof old.prompt === 'string' && old.prompt) body = { ...body, prompt: old.prompt };
      const updated = withPatch(method, { body, routes: routes.length > 0 ? routes : undefined });
      const offered = new Set(methods.filter((_, i) => i !== index).flatMap(routesOf));
      const gone = new Set(dropped.filter((r) => !offered.has(r)));
      const next = methods.map((m, i) => {
        if (i === index) return updated;
        const trigger = triggerOf(m);
        if (gone.size === 0 || !('listen' in trigger)) return m;
        const listen = mapLeaves(trigger.listen, (leaf) => (gone.has(routeOf(leaf) ?? '\u0000') ? undefined : leaf));
        return listen === trigger.listen ? m : withPatch(m, { trigger: triggerFor(listen) });
      });
      return { ...flow, methods: next };
    },
  };
}
