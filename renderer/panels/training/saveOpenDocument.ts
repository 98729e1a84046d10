import { useDocumentStore } from '../../stores/documentStore';

/**
 * Saves the pending edits of `path` when it is the open document, so a training or test session runs
 * what the person sees. Resolves to why it cannot start when they could not be saved.
 */
export async function saveOpenDocument(path: string): Promise<string | undefined> {
  if (useDocumentStore.getState().path !== path) return undefined;
  await useDocumentStore.getState().flushSave();
  const after = useDocumentStore.getState();
  if (after.path !== path || after.saveState !== 'error') return undefined;
  return `The latest changes to ${path} could not be saved: ${after.saveError ?? 'unknown error'}`;
}
