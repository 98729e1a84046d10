import { methodNodeId } from '../../model/nodeIds';
import type { Command } from '../command';
import { asDraft, asFlow, methodsOf, str, type MethodDraft } from './flowDraft';
import { defaultBody, type MethodTemplate } from './defaultBody';
import { freshId } from '../freshId';
import { withLayout } from '../withLayout';
import type { Position } from '../crewDraft';
import { FLOW_NODE_SIZE } from './flowLayout';

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

/**
 * Adds a method from the palette: a fresh unique id and name, a default body that validates, and a
 * start trigger (a method nothing connects to yet starts the flow; connecting into it makes it listen).
 * `router` adds a rules body with the routes `yes` and `no`.
 */
export function addMethod(template: MethodTemplate, position?: Position): Command {
  return {
    label: 'Add method',
    perform(doc) {
      const flow = asFlow(doc);
      const methods = methodsOf(flow);
      const base = BASE_NAME[template];
      const ids = new Set(methods.map((m) => str(m.id)).filter((x): x is string => x !== undefined));
      const names = new Set(methods.map((m) => str(m.name)).filter((x): x is string => x !== undefined));
      const name = freshName(base, names);
      const id = freshId(name.replace(/_/g, '-'), ids);
      const method: MethodDraft =
        template === 'router' || template === 'rules'
          ? { id, name, trigger: { start: true }, routes: ['yes', 'no'], body: defaultBody('rules', ['yes', 'no']) }
          : { id, name, trigger: { start: true }, body: defaultBody(template) };
      const next = { ...flow, methods: [...methods, method] };
      const at = position ?? besideRightmost(flow);
      return withLayout(asDraft(next), { [methodNodeId(id)]: at });
    },
  };
}

/** `base`, or `base_2`, `base_3`… — method names must be unique (listeners refer to them). */
export function freshName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`;
}

/** Without a drop point: right of the rightmost method (flows read left to right), level with it. */
function besideRightmost(flow: Record<string, unknown>): Position {
  const layout = flow.layout && typeof flow.layout === 'object' ? (flow.layout as Record<string, Position>) : {};
  const placed = Object.entries(layout)
    .filter(([id, p]) => id.startsWith('method:') && typeof p?.x === 'number' && typeof p?.y === 'number')
    .map(([, p]) => p);
  if (placed.length === 0) return { x: 40, y: 40 };
  const rightmost = placed.reduce((a, b) => (b.x > a.x ? b : a));
  return { x: rightmost.x + FLOW_NODE_SIZE.method.width + 64, y: rightmost.y };
}
