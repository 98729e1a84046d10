/** Where a changed value sits in a document: object keys and array indexes from the root. */
export type PatchPath = readonly (string | number)[];

/** Values to put at paths, in order; applying `diffDocuments(a, b)` to `a` gives `b`. */
export type DocumentPatch = readonly { readonly path: PatchPath; readonly value: unknown }[];

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isList = (v: unknown): v is unknown[] => Array.isArray(v);

/** Same keys in the same order: the object can be patched key by key and keeps its key order. */
function sameKeys(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i]);
}

/**
 * What changed from `before` to `after`, as the values to put at the changed paths. Commands share
 * unchanged parts with the document they edit, so the walk only descends where references differ.
 * An object whose keys changed, or an array whose length changed, is put whole (its unchanged
 * members are shared, not copied), so applying the patch restores key order exactly.
 */
export function diffDocuments(before: unknown, after: unknown): DocumentPatch {
  const patch: { path: PatchPath; value: unknown }[] = [];
  const walk = (a: unknown, b: unknown, path: (string | number)[]) => {
    if (Object.is(a, b)) return;
    if (isPlainObject(a) && isPlainObject(b) && sameKeys(a, b)) {
      for (const key of Object.keys(b)) walk(a[key], b[key], [...path, key]);
    } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      b.forEach((item, i) => walk(a[i], item, [...path, i]));
    } else {
      patch.push({ path, value: b });
    }
  };
  walk(before, after, []);
  return patch;
}

/** `doc` with the patch applied; copies only the objects and arrays on the patched paths. */
export function applyPatch<T>(doc: T, patch: DocumentPatch): T {
  let result: unknown = doc;
  for (const { path, value } of patch) result = setIn(result, path, value);
  return result as T;
}

function setIn(target: unknown, path: PatchPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (isList(target) && typeof head === 'number') {
    const copy = [...target];
    copy[head] = setIn(target[head], rest, value);
    return copy;
  }
  if (isPlainObject(target) && typeof head === 'string') return { ...target, [head]: setIn(target[head], rest, value) };
  throw new PatchMismatch(path);
}

/** A patch meets a document it was not made from (a bug: every edit goes through the history). */
export class PatchMismatch extends Error {
  constructor(readonly path: PatchPath) {
    super(`the undo history does not fit the document at ${path.join('.') || '(document)'}`);
    this.name = 'PatchMismatch';
  }
}
