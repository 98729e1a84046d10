import { CrewDocumentSchema, type CrewDocument } from './crew';
import { FlowDocumentSchema, type FlowDocument } from './flow';
import { problemsFromZod, type Problem } from './problems';

export type ParseResult<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

/** Validates an already-parsed JSON value as a crew document. Pure: no I/O. */
export function parseCrewDocument(value: unknown): ParseResult<CrewDocument> {
  const result = CrewDocumentSchema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, problems: problemsFromZod(result.error) };
}

/** Validates an already-parsed JSON value as a flow document. Pure: no I/O. */
export function parseFlowDocument(value: unknown): ParseResult<FlowDocument> {
  const result = FlowDocumentSchema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, problems: problemsFromZod(result.error) };
}
