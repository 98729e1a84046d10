import type { FlowCondition, FlowMethod } from '../../shared/model/flow';

/** What a listener has seen since it last fired, in a form a checkpoint can hold. */
export interface ListenerMemo {
  seen: string[];
  /** Members of an `or` that were under way when it fired: their next completion does not fire it again. */
  absorb: string[];
}

const methodLeaf = (name: string) => `m:${name}`;
const routeLeaf = (label: string) => `r:${label}`;

function leaves(c: FlowCondition): string[] {
  if (typeof c === 'string') return [methodLeaf(c)];
  if ('route' in c) return [routeLeaf(c.route)];
  return ('or' in c ? c.or : c.and).flatMap(leaves);
}

function satisfied(c: FlowCondition, seen: Set<string>): boolean {
  if (typeof c === 'string') return seen.has(methodLeaf(c));
  if ('route' in c) return seen.has(routeLeaf(c.route));
  return 'or' in c ? c.or.some((m) => satisfied(m, seen)) : c.and.every((m) => satisfied(m, seen));
}

/** Readable form of a trigger, for events and the trace: `start`, `a or route:retry`, `(a and b)`. */
export function describeTrigger(method: FlowMethod): string {
  const trigger = method.trigger;
  if (!('listen' in trigger)) return 'start';
  const text = (c: FlowCondition, nested: boolean): string => {
    if (typeof c === 'string') return c;
    if ('route' in c) return `route:${c.route}`;
    const joined = ('or' in c ? c.or : c.and).map((m) => text(m, true)).join('or' in c ? ' or ' : ' and ');
    return nested ? `(${joined})` : joined;
  };
  return `${'start' in trigger ? 'start, ' : ''}listen: ${text(trigger.listen, false)}`;
}

/**
 * Decides which listeners fire when a method completes (SPEC §4): a name fires when that method
 * completes; a route when a router chose it; `or` on any member (once for members racing each other);
 * `and` when all members completed since the listener last fired.
 */
export class ListenerBook {
  private readonly listeners: { method: FlowMethod; condition: FlowCondition; leaves: Set<string> }[];
  private readonly memo = new Map<string, { seen: Set<string>; absorb: Set<string> }>();

  constructor(methods: FlowMethod[], saved: Record<string, ListenerMemo> = {}) {
    this.listeners = methods.flatMap((method) =>
      'listen' in method.trigger ? [{ method, condition: method.trigger.listen, leaves: new Set(leaves(method.trigger.listen)) }] : [],
    );
    for (const l of this.listeners) {
      const s = saved[l.method.id];
      this.memo.set(l.method.id, { seen: new Set(s?.seen ?? []), absorb: new Set(s?.absorb ?? []) });
    }
  }

  /**
   * The listeners that fire now that `name` completed (and chose `route`, if it is a router).
   * `underWay` says whether a method is queued or running: when an `or` fires, its members already
   * under way belong to the same wave and their completion does not fire it a second time.
   */
  completed(name: string, route: string | undefined, underWay: (methodName: string) => boolean): FlowMethod[] {
    const happened = [methodLeaf(name), ...(route !== undefined ? [routeLeaf(route)] : [])];
    const fire: FlowMethod[] = [];
    for (const l of this.listeners) {
      const relevant = happened.filter((leaf) => l.leaves.has(leaf));
      if (relevant.length === 0) continue;
      const memo = this.memo.get(l.method.id)!;
      const fresh = relevant.filter((leaf) => !memo.absorb.delete(leaf));
      if (fresh.length === 0) continue;
      for (const leaf of fresh) memo.seen.add(leaf);
      if (!satisfied(l.condition, memo.seen)) continue;
      fire.push(l.method);
      memo.seen.clear();
      if (typeof l.condition === 'object' && 'or' in l.condition) {
        for (const member of l.condition.or) {
          if (typeof member === 'string' && member !== name && underWay(member)) memo.absorb.add(methodLeaf(member));
        }
      }
    }
    return fire;
  }

  /** The listeners that have seen something (the rest start empty when restored). */
  snapshot(): Record<string, ListenerMemo> {
    const out: Record<string, ListenerMemo> = {};
    for (const [id, m] of this.memo) if (m.seen.size > 0 || m.absorb.size > 0) out[id] = { seen: [...m.seen], absorb: [...m.absorb] };
    return out;
  }
}
