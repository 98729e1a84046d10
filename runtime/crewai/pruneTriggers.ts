import type { FlowCondition, FlowMethod } from '../../shared/model/flow';

/** Where an imported flow method came from: the Python method it was read from and its line. */
export interface MethodOrigin {
  fnName: string;
  line: number;
  /** False for the later steps of a method read as several; they follow its first step silently. */
  first: boolean;
}

type Note = (line: number, item: string, why: string) => void;

/**
 * Makes an imported flow's triggers point only at what exists: a listen on the method itself, on a
 * method left out, or on a route no router chooses is dropped (from an `or_`, that branch only). A
 * method left with no trigger is left out, and so, in turn, are its listeners. Each change is noted.
 */
export function pruneTriggers(methods: FlowMethod[], origin: Map<string, MethodOrigin>, note: Note): FlowMethod[] {
  let kept = methods;
  for (;;) {
    const names = new Set(kept.map((m) => m.name));
    const labels = new Set(kept.flatMap((m) => m.routes ?? []));
    const next: FlowMethod[] = [];
    let changed = false;
    for (const m of kept) {
      if (!('listen' in m.trigger)) {
        next.push(m);
        continue;
      }
      const listen = m.trigger.listen;
      const cleaned = clean(listen, m.name, names, labels);
      if (cleaned !== undefined && JSON.stringify(cleaned) === JSON.stringify(listen)) {
        next.push(m);
        continue;
      }
      changed = true;
      const from = origin.get(m.name) ?? { fnName: m.name, line: 0, first: true };
      const missing = describe(listen, m.name, names, labels);
      const isStart = 'start' in m.trigger && m.trigger.start === true;
      if (cleaned !== undefined || isStart) {
        note(from.line, `trigger of ${from.fnName}`, `it listens to ${missing}; that part of its trigger is left out`);
        next.push({ ...m, trigger: (cleaned !== undefined ? { ...(isStart ? { start: true } : {}), listen: cleaned } : { start: true }) as FlowMethod['trigger'] });
      } else if (from.first) {
        note(from.line, `method ${from.fnName}`, `it listens only to ${missing}, so it can never run; it is left out (and so are its listeners)`);
      }
    }
    kept = next;
    if (!changed) return kept;
  }
}

function clean(c: FlowCondition, self: string, names: Set<string>, labels: Set<string>): FlowCondition | undefined {
  if (typeof c === 'string') return c !== self && names.has(c) ? c : undefined;
  if ('route' in c) return labels.has(c.route) ? c : undefined;
  if ('or' in c) {
    const parts = c.or.map((p) => clean(p, self, names, labels)).filter((p): p is FlowCondition => p !== undefined);
    return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : { or: parts };
  }
  const parts = c.and.map((p) => clean(p, self, names, labels));
  return parts.some((p) => p === undefined) ? undefined : { and: parts as FlowCondition[] };
}

/** The parts of a condition that name nothing the flow has, for the unmapped item's reason. */
function describe(c: FlowCondition, self: string, names: Set<string>, labels: Set<string>): string {
  const bad: string[] = [];
  const walk = (x: FlowCondition) => {
    if (typeof x === 'string') {
      if (x === self) bad.push('itself');
      else if (!names.has(x)) bad.push(`method ${x}, which is not imported`);
    } else if ('route' in x) {
      if (!labels.has(x.route)) bad.push(`route "${x.route}", which no imported router chooses`);
    } else ('or' in x ? x.or : x.and).forEach(walk);
  };
  walk(c);
  return bad.join(' and ');
}
