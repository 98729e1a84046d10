import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Schemes LanceDB opens as object stores (no local folder to create). */
const OBJECT_STORE = /^(s3|s3\+ddb|gs|az|abfss|memory):\/\//i;

/** Whether a memory location is an object-store URI LanceDB opens itself (s3://, gs://, az://, memory://). */
export function isObjectStoreUri(location: string): boolean {
  return OBJECT_STORE.test(location);
}

/**
 * The location of one store under a shared root: a folder (or a file:// URL, read as its folder) joined as a
 * path, an object-store URI joined with a slash.
 */
export function memoryLocationUnder(root: string, name: string): string {
  if (isObjectStoreUri(root)) return `${root.replace(/\/+$/, '')}/${encodeURIComponent(name)}`;
  return join(root.startsWith('file://') ? fileURLToPath(root) : root, name);
}
