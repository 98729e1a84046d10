import type { Problem } from '../../shared/model/problems';
import { isRecord } from '../commands/crewDraft';
import type { DocumentDraft } from '../commands/documentDraft';
import { host } from '../host/hostContext';
import { hostOnlyProblems, localProblems } from './documentProblems';

/** A file that is not a JSON object: its text and why, so it can be shown and repaired, never overwritten. */
export type Unreadable = { text: string; error: string };

/**
 * A document as read: the draft with the problems only the host finds (the renderer checks the rest
 * itself after every change), or the text of a file that is not a JSON object.
 */
export type ReadDocument = { doc: DocumentDraft; hostProblems: Problem[] } | { unreadable: Unreadable };

/** Reads a workspace document through the host API (`documents.read`). Throws when the host refuses. */
export async function readDocument(path: string): Promise<ReadDocument> {
  const response = await host().invoke('documents.read', { path });
  if (!isRecord(response.document)) {
    const error = response.document === null ? (response.problems[0]?.message ?? 'the file is not JSON') : 'the document is not a JSON object';
    return { unreadable: { text: response.text, error } };
  }
  const doc = response.document as DocumentDraft;
  return { doc, hostProblems: hostOnlyProblems(response.problems, localProblems(doc)) };
}

/** Writes the document (`documents.save`, valid or not); resolves with the problems only the host finds. */
export async function writeDocument(path: string, doc: DocumentDraft): Promise<Problem[]> {
  const response = await host().invoke('documents.save', { path, document: doc });
  return hostOnlyProblems(response.problems, localProblems(doc));
}

/** Renames a document on disk (`documents.rename`); resolves with the path it has now. */
export async function renameDocument(path: string, newPath: string): Promise<string> {
  return (await host().invoke('documents.rename', { path, newPath })).path;
}

/** Moves a document to the workspace trash (`documents.delete`). */
export async function trashDocument(path: string): Promise<void> {
  await host().invoke('documents.delete', { path });
}

/** Edited text of an unreadable file, as a document once it is a JSON object. */
export function parseDocumentText(text: string): { doc: DocumentDraft } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `invalid JSON: ${(error as Error).message}` };
  }
  return isRecord(value) ? { doc: value as DocumentDraft } : { error: 'the document is not a JSON object' };
}

/** Which read of a document is the latest: one that answers after a newer load (or a close) is dropped. */
export class LoadSequence {
  private current = 0;

  /** Starts a new load (or drops the ones under way): its ticket. */
  next(): number {
    return ++this.current;
  }

  isLatest(ticket: number): boolean {
    return ticket === this.current;
  }
}
