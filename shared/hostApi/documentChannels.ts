import { z } from 'zod';
import { DocumentPathSchema, empty, ProblemSchema, type ChannelSchemas } from './requestFields';

export const DocumentKindSchema = z.enum(['crew', 'flow']);
export type DocumentKind = z.infer<typeof DocumentKindSchema>;

export const DocumentEntrySchema = z.object({
  path: z.string(),
  kind: DocumentKindSchema,
  /** From the document when it could be read. */
  id: z.string().optional(),
  name: z.string(),
  problemCount: z.number(),
  modifiedAt: z.number(),
});
export type DocumentEntry = z.infer<typeof DocumentEntrySchema>;

/** The workspace's crew and flow documents: list, read, write, rename, delete, validate, import. */
export const DOCUMENT_CHANNELS = {
  'documents.list': { request: empty, response: z.object({ documents: z.array(DocumentEntrySchema) }) },
  'documents.read': {
    request: z.strictObject({ path: DocumentPathSchema }),
    response: z.object({
      path: z.string(),
      /** The parsed JSON as it is on disk (defaults not applied), or null when the file is not JSON. */
      document: z.unknown(),
      /** The file's text, so a document that is not JSON can still be shown and repaired. */
      text: z.string(),
      problems: z.array(ProblemSchema),
      modifiedAt: z.number(),
    }),
  },
  'documents.create': {
    request: z.strictObject({ kind: z.enum(['crew', 'flow']), name: z.string().min(1).max(200) }),
    response: z.object({ path: z.string(), document: z.unknown() }),
  },
  'documents.save': {
    /** Saved even when it does not validate: the problems come back and nothing is lost. */
    request: z.strictObject({ path: DocumentPathSchema, document: z.record(z.string(), z.unknown()) }),
    response: z.object({ path: z.string(), problems: z.array(ProblemSchema), modifiedAt: z.number() }),
  },
  'documents.rename': {
    request: z.strictObject({ path: DocumentPathSchema, newPath: DocumentPathSchema }),
    response: z.object({ path: z.string() }),
  },
  'documents.delete': { request: z.strictObject({ path: DocumentPathSchema }), response: empty },
  'documents.validate': {
    request: z.strictObject({ document: z.unknown() }),
    response: z.object({ problems: z.array(ProblemSchema) }),
  },
  /** Reads (never runs) a CrewAI project and writes it into the workspace as new documents (one crew per @CrewBase class). */
  'documents.importCrewai': {
    /** The project folder, inside the workspace (relative to it, or absolute). */
    request: z.strictObject({ dir: z.string().min(1).max(4096) }),
    response: z.object({
      /** The main document (the one to open). */
      path: z.string(),
      /** Every document written, the main one first. */
      documents: z.array(z.object({ path: z.string(), kind: z.enum(['crew', 'flow']) })),
      /** What has no Crewdeck equivalent: where it is in the project, what it is, and why. */
      unmapped: z.array(z.object({ path: z.string(), item: z.string(), why: z.string() })),
      sourceFiles: z.array(z.string()),
    }),
  },
} as const satisfies ChannelSchemas;
