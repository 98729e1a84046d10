import { useDocumentStore } from '../stores/documentStore';

/**
 * Saves the pending edits of `path` when it is the open document, so a run, a training or a test starts
 * from what the person sees. Resolves to why it cannot start when they could not be saved.
 */
export async function saveOpenDocument(path: string): Promise<string | undefined> {
  if (useDocumentStore.getState().path !== path) return undefined;
  await useDocumentStore.getState().flushSave();
  const after = useDocumentStore.getState();
  if (after.path !== path || after.saveState !== 'error') return undefined;
  return `The latest changes to ${path} could not be saved, so it cannot start with them: ${after.saveError ?? 'unknown error'}`;
}
