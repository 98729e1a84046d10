import { parseCrewDocument, parseFlowDocument } from '../../shared/model/parse';
import { isFlowDocument } from '../model/documentKind';
import type { Problem } from '../../shared/model/problems';

/** The document's problems as the editor checks them locally (zod shape and references). */
export function localProblems(doc: unknown): Problem[] {
  const result = isFlowDocument(doc) ? parseFlowDocument(doc) : parseCrewDocument(doc);
  return result.ok ? [] : result.problems;
}

const key = (p: Problem) => `${p.path}\u0000${p.message}`;

/**
 * Problems only the host finds (JSON Schemas that do not compile…): those in `host` that the local
 * check of the same document did not report. They are kept until the next save answers.
 */
export function hostOnlyProblems(host: readonly Problem[], local: readonly Problem[]): Problem[] {
  const seen = new Set(local.map(key));
  return host.filter((p) => !seen.has(key(p)));
}

export function mergeProblems(local: readonly Problem[], extra: readonly Problem[]): Problem[] {
  if (extra.length === 0) return local as Problem[];
  const seen = new Set(local.map(key));
  return [...local, ...extra.filter((p) => !seen.has(key(p)))];
}
