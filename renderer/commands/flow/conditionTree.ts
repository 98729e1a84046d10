import { isRecord } from '../crewDraft';

/**
 * Listen conditions as trees: a leaf names a method (`"draft"`) or a route (`{ route: "yes" }`); a
 * gate (`{ or: [...] }` / `{ and: [...] }`) combines its members. A place in the tree is the list of
 * member indexes from the root (`[]` is the root, `[1, 0]` the first member of the root's second).
 * Functions here are pure and keep whatever they do not touch as it is (also shapes that do not validate).
 */
export type ConditionRef = string | { route: string };
export type GateOp = 'or' | 'and';

export function gateOf(condition: unknown): { op: GateOp; members: unknown[] } | undefined {
  if (!isRecord(condition)) return undefined;
  if (Array.isArray(condition.or)) return { op: 'or', members: condition.or };
  if (Array.isArray(condition.and)) return { op: 'and', members: condition.and };
  return undefined;
}

export function routeOf(condition: unknown): string | undefined {
  return isRecord(condition) && typeof condition.route === 'string' && gateOf(condition) === undefined ? condition.route : undefined;
}

export function sameRef(a: unknown, b: ConditionRef): boolean {
  if (typeof b === 'string') return a === b;
  return routeOf(a) === b.route;
}

export function conditionAt(condition: unknown, path: readonly number[]): unknown {
  let current = condition;
  for (const i of path) {
    const gate = gateOf(current);
    if (!gate) return undefined;
    current = gate.members[i];
  }
  return current;
}

const gate = (op: GateOp, members: unknown[]) => ({ [op]: members });

/**
 * Adds `ref` to a condition: into the gate at `gatePath` when given; otherwise at the root — an
 * `or`/`and` root gets one more member, a single reference becomes `{ or: [it, ref] }`, no condition
 * becomes `ref`. A reference already there changes nothing (the same object comes back).
 */
export function addRef(condition: unknown, ref: ConditionRef, gatePath?: readonly number[]): unknown {
  if (gatePath && gatePath.length > 0) {
    const [i, ...rest] = gatePath;
    const g = gateOf(condition);
    if (!g || i === undefined) return condition;
    const child = addRef(g.members[i], ref, rest);
    if (child === g.members[i]) return condition;
    return gate(g.op, g.members.map((m, j) => (j === i ? child : m)));
  }
  if (condition === undefined) return ref;
  const g = gateOf(condition);
  if (g) return g.members.some((m) => sameRef(m, ref)) ? condition : gate(g.op, [...g.members, ref]);
  if (sameRef(condition, ref)) return condition;
  return gate('or', [condition, ref]);
}

/** Switches the gate at `path` between `or` and `and`. */
export function setOpAt(condition: unknown, path: readonly number[], op: GateOp): unknown {
  const g = gateOf(condition);
  if (!g) return condition;
  const [i, ...rest] = path;
  if (i === undefined) return g.op === op ? condition : gate(op, g.members);
  const child = setOpAt(g.members[i], rest, op);
  return child === g.members[i] ? condition : gate(g.op, g.members.map((m, j) => (j === i ? child : m)));
}

/**
 * Rewrites every leaf: `fn` returns the leaf to keep (the same value, or a renamed one) or undefined
 * to drop it. Gates that lose members shrink as in `removePaths`. Untouched subtrees stay the same objects.
 */
export function mapLeaves(condition: unknown, fn: (leaf: unknown) => unknown): unknown {
  const g = gateOf(condition);
  if (!g) return fn(condition);
  let changed = false;
  let dropped = false;
  const members: unknown[] = [];
  for (const m of g.members) {
    const next = mapLeaves(m, fn);
    if (next !== m) changed = true;
    if (next === undefined) dropped = true;
    else members.push(next);
  }
  if (!changed) return condition;
  if (members.length === 0) return undefined;
  if (members.length === 1 && dropped) return members[0];
  return gate(g.op, members);
}

/**
 * Removes the members at several places at once (places refer to the condition as it is now, so
 * removing one does not shift the others). A gate left empty goes too; a gate left with one member becomes that member.
 */
export function removePaths(condition: unknown, paths: readonly (readonly number[])[]): unknown {
  const marked = new Set(paths.map((p) => p.join('.')));
  const walk = (c: unknown, path: number[]): unknown => {
    if (marked.has(path.join('.'))) return undefined;
    const g = gateOf(c);
    if (!g) return c;
    let changed = false;
    let dropped = false;
    const members: unknown[] = [];
    g.members.forEach((m, i) => {
      const next = walk(m, [...path, i]);
      if (next !== m) changed = true;
      if (next === undefined) dropped = true;
      else members.push(next);
    });
    if (!changed) return c;
    if (members.length === 0) return undefined;
    if (members.length === 1 && dropped) return members[0];
    return gate(g.op, members);
  };
  return walk(condition, []);
}
