import { methodNodeId } from '../../model/nodeIds';
import type { FlowCommand } from '../command';
import { methodIndexOf, methodNodeIds, methodsOf, routesOf, str, triggerOf, type FlowDraft, type MethodDraft } from './flowDraft';
import { defaultBody, type MethodTemplate } from './defaultBody';
import { freshId } from '../freshId';
import { withLayout } from '../withLayout';
import type { Position } from '../crewDraft';
import { FLOW_NODE_SIZE, flowPositions, ROUTE_ROW_HEIGHT } from './flowLayout';

const BASE_NAME: Record<MethodTemplate, string> = {
  crew: 'run_crew',
  agent: 'ask_agent',
  llm: 'call_model',
  for_each: 'for_each_item',
  human_feedback: 'review',
  script: 'script',
  set_state: 'set_state',
  rules: 'decide',
  router: 'route',
};

const GAP = 24;

/**
 * Adds a method from the palette, so the flow stays valid as it is drawn:
 * - the first method of an empty flow starts it;
 * - with a method selected (`after`, its node id) the new one listens to it — to a router's first route
 *   that nothing listens to yet (else its first route);
 * - otherwise it is another start method.
 * A start method's default body names no `{input}` (there is none). The method lands where it was
 * dropped (`position`, its top-left), right of `after`, or right of the rightmost method, and is moved
 * down until it overlaps no other node. `router` adds a rules body with the routes `yes` and `no`.
 */
export function addMethod(template: MethodTemplate, position?: Position, after?: string): FlowCommand {
  return {
    kind: 'flow',
    label: 'Add method',
    perform(flow) {
      const methods = methodsOf(flow);
      const base = BASE_NAME[template];
      const ids = new Set(methods.map((m) => str(m.id)).filter((x): x is string => x !== undefined));
      const names = new Set(methods.map((m) => str(m.name)).filter((x): x is string => x !== undefined));
      const name = freshName(base, names);
      const id = freshId(name.replace(/_/g, '-'), ids);
      const previousIndex = after === undefined ? -1 : methodIndexOf(flow, after);
      const previous = previousIndex >= 0 ? methods[previousIndex] : undefined;
      const listen = previous ? listenTo(previous, methods) : undefined;
      const trigger = listen === undefined ? { start: true } : { listen };
      const start = listen === undefined;
      const router = template === 'router' || template === 'rules';
      const method: MethodDraft = router
        ? { id, name, trigger, routes: ['yes', 'no'], body: defaultBody('rules', ['yes', 'no'], start) }
        : { id, name, trigger, body: defaultBody(template, [], start) };
      const next = { ...flow, methods: [...methods, method] };
      const placed = flowPositions(flow);
      const wanted = position ?? (after && placed[after] ? { x: placed[after].x + FLOW_NODE_SIZE.method.width + 64, y: placed[after].y } : besideRightmost(placed));
      const at = freeSpot(wanted, router ? 2 : 0, occupied(flow, placed));
      return withLayout(next, { [methodNodeId(id)]: at });
    },
  };
}

/** What a method added after `previous` listens to: its name, or a router's first route with no listener. */
function listenTo(previous: MethodDraft, methods: readonly MethodDraft[]): string | { route: string } | undefined {
  const name = str(previous.name);
  const routes = routesOf(previous);
  if (routes.length === 0) return name;
  const listened = new Set<string>();
  for (const m of methods) if ('listen' in triggerOf(m)) routesIn(triggerOf(m).listen, listened);
  return { route: routes.find((r) => !listened.has(r)) ?? routes[0]! };
}

/** Adds the route labels a listen condition names to `out`. */
function routesIn(condition: unknown, out: Set<string>): void {
  if (condition === null || typeof condition !== 'object') return;
  const c = condition as Record<string, unknown>;
  if (typeof c.route === 'string') out.add(c.route);
  for (const key of ['or', 'and']) if (Array.isArray(c[key])) for (const member of c[key] as unknown[]) routesIn(member, out);
}

/** `base`, or `base_2`, `base_3`… — method names must be unique (listeners refer to them). */
export function freshName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`;
}

type Rect = { x: number; y: number; width: number; height: number };

/** The boxes of the methods and gates drawn now (saved positions, else the auto-layout's). */
function occupied(flow: FlowDraft, placed: Record<string, Position>): Rect[] {
  const routesByNode = new Map<string, number>();
  const nodeIds = methodNodeIds(flow);
  methodsOf(flow).forEach((m, i) => routesByNode.set(nodeIds[i] ?? '', routesOf(m).length));
  return Object.entries(placed).map(([nodeId, p]) => {
    const size = nodeId.startsWith('gate:') ? FLOW_NODE_SIZE.gate : FLOW_NODE_SIZE.method;
    return { x: p.x, y: p.y, width: size.width, height: size.height + routeRows(routesByNode.get(nodeId) ?? 0) };
  });
}

/** A router is taller: a labelled row per route (two fit in a method's height, as the auto-layout counts). */
const routeRows = (routes: number) => Math.max(0, routes - 2) * ROUTE_ROW_HEIGHT + (routes > 0 ? 2 * ROUTE_ROW_HEIGHT : 0);

/** `wanted`, or the nearest spot below it that overlaps no node (with a gap around each). */
export function freeSpot(wanted: Position, routes: number, taken: readonly Rect[]): Position {
  const height = FLOW_NODE_SIZE.method.height + routeRows(routes);
  const box = (p: Position): Rect => ({ x: p.x, y: p.y, width: FLOW_NODE_SIZE.method.width, height });
  const hits = (a: Rect) => taken.find((b) => a.x < b.x + b.width + GAP && b.x < a.x + a.width + GAP && a.y < b.y + b.height + GAP && b.y < a.y + a.height + GAP);
  let at = { x: Math.round(wanted.x), y: Math.round(wanted.y) };
  for (let i = 0; i < 200; i++) {
    const hit = hits(box(at));
    if (!hit) return at;
    at = { x: at.x, y: hit.y + hit.height + GAP };
  }
  return at;
}

/** Without a drop point or a selected method: right of the rightmost method (flows read left to right), level with it. */
function besideRightmost(placed: Record<string, Position>): Position {
  const methods = Object.entries(placed).filter(([id]) => id.startsWith('method:')).map(([, p]) => p);
  if (methods.length === 0) return { x: 40, y: 40 };
  const rightmost = methods.reduce((a, b) => (b.x > a.x ? b : a));
  return { x: rightmost.x + FLOW_NODE_SIZE.method.width + 64, y: rightmost.y };
}
