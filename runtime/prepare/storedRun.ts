import { CrewDocumentSchema, type CrewDocument } from '../../shared/model/crew';
import { FlowDocumentSchema, type FlowDocument } from '../../shared/model/flow';
import { problemsFromZod } from '../../shared/model/problems';
import { resolveWorkspaceDocument } from '../document/workspaceDocument';
import { DocumentInvalid, RunNotFound } from '../errors';
import type { RunRecord, RunStore } from '../store/types';

/** What replaying, resuming or stopping a stored run starts from. */
export interface StoredRun {
  store: RunStore;
  previous: RunRecord;
}

/** The stored run `runId` (reading it marks one whose process died as interrupted); RunNotFound without a store. */
export function storedRun(store: RunStore | undefined, runId: string): StoredRun {
  const previous = store?.getRun(runId);
  if (!store || !previous) throw new RunNotFound(runId);
  return { store, previous };
}

/** The crew document a run stored, checked again. */
export function storedCrew(runId: string, previous: RunRecord): CrewDocument {
  const parsed = CrewDocumentSchema.safeParse(previous.document);
  if (!parsed.success) throw new DocumentInvalid(`run ${runId} (stored document)`, problemsFromZod(parsed.error));
  return parsed.data;
}

/** The flow document a run stored, checked again. */
export function storedFlow(runId: string, previous: RunRecord): FlowDocument {
  const parsed = FlowDocumentSchema.safeParse(previous.document);
  if (!parsed.success) throw new DocumentInvalid(`run ${runId} (stored document)`, problemsFromZod(parsed.error));
  return parsed.data;
}

/**
 * Relative paths in a stored run's document (crew files, scripts) resolve from its folder: it must still
 * be the workspace's (the one document-path check, symlinks included). The file, absolute; none without a path.
 */
export function storedDocumentFile(workspace: string, previous: RunRecord): string | undefined {
  return previous.documentPath ? resolveWorkspaceDocument(workspace, previous.documentPath).file : undefined;
}
