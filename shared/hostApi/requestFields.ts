import { z } from 'zod';

/** The field schemas that requests of several channel families share, and the problem shape they answer with. */

export const ProblemSchema = z.object({ path: z.string(), message: z.string() });

/** A document path relative to the workspace, with forward slashes; never absolute, never `..`. */
export const DocumentPathSchema = z
  .string()
  .min(1)
  .max(500)
  .refine((p) => !p.startsWith('/') && !/^[A-Za-z]:/.test(p) && !p.includes('\\') && !p.includes('\0'), 'must be a path relative to the workspace, with forward slashes')
  .refine((p) => !p.split('/').some((s) => s === '..' || s === '' || s === '.'), 'must not contain "..", "." or empty segments')
  // Case-insensitive file systems (macOS, Windows) and Windows' trailing dots and spaces would let
  // `.CrewDeck/` or `.crewdeck./` reach the runtime's own folder.
  .refine((p) => !p.split('/').some((s) => s.replace(/[. ]+$/, '').toLowerCase() === '.crewdeck'), 'must not be inside .crewdeck/')
  .refine((p) => !p.split('/').some((s) => /[. ]$/.test(s)), 'segments must not end in a dot or a space')
  .refine((p) => /\.(crew|flow)\.json$/.test(p), 'must end in .crew.json or .flow.json');

export const RunId = z.string().regex(/^[A-Za-z0-9_-]{1,80}$/, 'not a run id');
export const Id = z.string().regex(/^[A-Za-z0-9_-]{1,120}$/, 'not an id');
export const RequestId = z.string().regex(/^[A-Za-z0-9_:.-]{1,200}$/, 'not a request id');
export const Inputs = z.record(z.string().max(200), z.string().max(200_000));

export const empty = z.strictObject({});

/** What every channel family declares: per channel (`domain.verb`), its request and response schema. */
export type ChannelSchemas = Record<string, { request: z.ZodType; response: z.ZodType }>;
