/**
 * A flow's state is shared by its methods, as CrewAI's `self.state` is: what a method changes is
 * applied to the live state as operations, in the order the changes happen, never as a copy of the
 * whole state written back over what other methods did meanwhile. Two methods running at once that
 * each add 1 to `n` and append to `items` leave `n` two higher and both items in the list.
 *
 * A state value is never changed in place: `applyStateOps` returns a new state that shares what the
 * operations did not touch, so an event or a checkpoint that holds an earlier state keeps it as it was.
 */
export type StatePath = string[];

export type StateOp =
  /** `path` takes `value` (intermediate objects are made as needed). */
  | { op: 'set'; path: StatePath; value: unknown }
  /** `path` is removed. */
  | { op: 'delete'; path: StatePath }
  /** The number at `path` grows by `by` (a missing or non-number value counts as 0). */
  | { op: 'increment'; path: StatePath; by: number }
  /** `values` go at the end of the list at `path` (a missing or non-list value becomes the list of them). */
  | { op: 'append'; path: StatePath; values: unknown[] };

type Json = Record<string, unknown>;

function isPlainObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Own properties only: a key such as `__proto__` in untrusted state is data, never the prototype. */
function own(object: Json, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function withKey(object: Json, key: string, value: unknown): Json {
  const copy = { ...object };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

function withoutKey(object: Json, key: string): Json {
  const copy = { ...object };
  delete copy[key];
  return copy;
}

/** The value the operation leaves at its path, given the value there now. */
function nextValue(op: StateOp, current: unknown): unknown {
  switch (op.op) {
    case 'set':
      return op.value;
    case 'increment':
      return (typeof current === 'number' ? current : 0) + op.by;
    case 'append':
      return Array.isArray(current) ? [...(current as unknown[]), ...op.values] : [...op.values];
    case 'delete':
      return undefined;
  }
}

function applyAt(object: Json, path: StatePath, op: StateOp): Json {
  const [key, ...rest] = path;
  if (key === undefined) return object;
  if (rest.length === 0) return op.op === 'delete' ? withoutKey(object, key) : withKey(object, key, nextValue(op, own(object, key)));
  const child = own(object, key);
  if (op.op === 'delete' && !isPlainObject(child)) return object;
  return withKey(object, key, applyAt(isPlainObject(child) ? child : {}, rest, op));
}

/** The state after `ops`, applied in order; `state` itself is not changed. */
export function applyStateOps(state: Json, ops: readonly StateOp[]): Json {
  let next = state;
  for (const op of ops) next = applyAt(next, op.path, op);
  return next;
}

/** Top-level fields a method sets (a `set_state`, a for_each's `into`, a feedback answer), as operations. */
export function setOps(set: Record<string, unknown> | undefined): StateOp[] {
  return Object.entries(set ?? {}).map(([key, value]) => ({ op: 'set', path: [key], value }));
}

/** A key's value as JSON sees it: undefined fields are absent. */
function definedKeys(object: Json): string[] {
  return Object.keys(object).filter((k) => object[k] !== undefined);
}

/**
 * Whether two JSON values are equal as JSON (object fields in any order), without serialising them: a
 * long string shared by both sides compares by identity, so comparing a progress that holds a 2 MB
 * output with its copy costs what the structure costs, not what the text costs.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => jsonEqual(v, b[i]));
  }
  const keys = definedKeys(a as Json);
  if (keys.length !== definedKeys(b as Json).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && jsonEqual((a as Json)[k], (b as Json)[k]));
}

/**
 * A copy as a JSON round trip would make it (undefined fields dropped, undefined list items null), but
 * strings are shared rather than copied: they are immutable, and a copy keeps comparing by identity.
 */
export function copyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => (v === undefined ? null : copyJson(v))) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const v = (value as Json)[key];
    if (v === undefined) continue;
    if (key === '__proto__') Object.defineProperty(out, key, { value: copyJson(v), enumerable: true, writable: true, configurable: true });
    else out[key] = copyJson(v);
  }
  return out as T;
}

const same = jsonEqual;

/**
 * The operations that turn `before` into `after`, as narrow as can be read from the two: an integer that
 * changed is an increment, a list that only grew at its end an append, an object's fields are compared
 * one by one; anything else is a `set` of the new value. A script's changes to the copy of the state it
 * was given become these operations, applied to the live state when it returns.
 */
export function diffStateOps(before: Json, after: Json, path: StatePath = []): StateOp[] {
  const ops: StateOp[] = [];
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key)) ops.push({ op: 'delete', path: [...path, key] });
  }
  for (const key of Object.keys(after)) {
    const was = own(before, key);
    const now = own(after, key);
    const at = [...path, key];
    if (!Object.hasOwn(before, key)) ops.push({ op: 'set', path: at, value: now });
    else if (!same(was, now)) ops.push(...diffValue(was, now, at));
  }
  return ops;
}

function diffValue(was: unknown, now: unknown, at: StatePath): StateOp[] {
  if (Number.isSafeInteger(was) && Number.isSafeInteger(now)) return [{ op: 'increment', path: at, by: (now as number) - (was as number) }];
  if (Array.isArray(was) && Array.isArray(now) && now.length > was.length && was.every((v, i) => same(v, now[i]))) {
    return [{ op: 'append', path: at, values: now.slice(was.length) }];
  }
  if (isPlainObject(was) && isPlainObject(now)) return diffStateOps(was, now, at);
  return [{ op: 'set', path: at, value: now }];
}

/** The top-level fields the operations touch, in first-touched order (`flow.method.completed`'s `changed`). */
export function fieldsTouched(ops: readonly StateOp[]): string[] {
  return [...new Set(ops.map((op) => op.path[0]).filter((k): k is string => k !== undefined))];
}
