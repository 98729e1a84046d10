import { parseGateNodeId } from '../../model/nodeIds';
import type { FlowCommand } from '../command';
import { withPatch } from '../crewDraft';
import { withLayout } from '../withLayout';
import { mapLeaves, routeOf } from './conditionTree';
import { removeListenRefs } from './disconnectListen';
import { methodNodeIds, methodsOf, routesOf, str, triggerOf, type FlowDraft } from './flowDraft';
import { triggerFor } from './listenerTrigger';

/**
 * Deletes methods and gates. A deleted gate takes its part of the listener's condition with it.
 * Deleting methods removes references to their names (and to routes no remaining router offers)
 * from the other listeners; a listener left with no condition becomes a start method.
 */
export function deleteFlowNodes(nodeIds: readonly string[]): FlowCommand {
  return {
    kind: 'flow',
    label: nodeIds.length === 1 ? 'Delete node' : `Delete ${nodeIds.length} nodes`,
    perform(flow) {
      const nodes = methodNodeIds(flow);
      const gone = new Set(nodeIds.map((id) => nodes.indexOf(id)).filter((i) => i >= 0));
      const gates = nodeIds.map(parseGateNodeId).filter((g): g is NonNullable<typeof g> => g !== undefined);
      if (gone.size === 0 && gates.length === 0) return flow;

      let next: FlowDraft = removeListenRefs(flow, gates.map((g) => ({ listener: g.methodKey, path: g.path })));
      if (gone.size === 0) return next;

      const methods = methodsOf(next);
      const kept = methods.filter((_, i) => !gone.has(i));
      const names = new Set(kept.map((m) => str(m.name)).filter((n): n is string => n !== undefined));
      const routes = new Set(kept.flatMap(routesOf));
      const goneNames = new Set(methods.filter((_, i) => gone.has(i)).map((m) => str(m.name)).filter((n): n is string => n !== undefined && !names.has(n)));
      const goneRoutes = new Set(methods.filter((_, i) => gone.has(i)).flatMap(routesOf).filter((r) => !routes.has(r)));
      const cleaned = kept.map((m) => {
        const trigger = triggerOf(m);
        if (!('listen' in trigger)) return m;
        const condition = mapLeaves(trigger.listen, (leaf) => {
          if (typeof leaf === 'string' && goneNames.has(leaf)) return undefined;
          const route = routeOf(leaf);
          return route !== undefined && goneRoutes.has(route) ? undefined : leaf;
        });
        return condition === trigger.listen ? m : withPatch(m, { trigger: triggerFor(condition) });
      });
      next = { ...next, methods: cleaned };
      const layout: Record<string, undefined> = {};
      for (const i of gone) {
        const nodeId = nodes[i];
        if (nodeId !== undefined) layout[nodeId] = undefined;
      }
      return withLayout(next, layout);
    },
  };
}
