import { registerWorkspaceSecrets } from '../secretEnv';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCrewDocument, parseFlowDocument } from '../../shared/model/parse';
import type { CrewDocument } from '../../shared/model/crew';
import { crewWarnings } from '../../shared/model/crewWarnings';
import { flowStubWarnings } from '../../shared/model/flowChecks';
import type { FlowDocument } from '../../shared/model/flow';
import { WorkspaceSettingsSchema, WORKSPACE_SETTINGS_FILE, type WorkspaceSettings } from '../../shared/model/workspace';
import { problemsFromZod, type Problem } from '../../shared/model/problems';
import { DocumentInvalid } from '../errors';
import { flowSchemaProblems, schemaProblems } from './schemaProblems';

/** Reads a JSON file; unreadable files and JSON syntax errors become DocumentInvalid with a position. */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory' : (error as Error).message;
    throw new DocumentInvalid(file, [{ path: '(file)', message: why }]);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DocumentInvalid(file, [{ path: '(document)', message: describeJsonError(text, error as Error) }]);
  }
}

function describeJsonError(text: string, error: Error): string {
  const m = /position (\d+)/.exec(error.message);
  if (!m) return `invalid JSON: ${error.message}`;
  const pos = Number(m[1]);
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return `invalid JSON at line ${line}, column ${column}: ${error.message.replace(/ in JSON at position \d+.*$/, '')}`;
}

/** Loads and validates a crew file. Throws only DocumentInvalid, listing every problem. */
export function loadCrewFile(file: string): CrewDocument {
  const parsed = parseCrewDocument(readJsonFile(file));
  if (!parsed.ok) throw new DocumentInvalid(file, parsed.problems);
  return parsed.value;
}

/** Loads and validates a flow file. Throws only DocumentInvalid, listing every problem. */
export function loadFlowFile(file: string): FlowDocument {
  const parsed = parseFlowDocument(readJsonFile(file));
  if (!parsed.ok) throw new DocumentInvalid(file, parsed.problems);
  return parsed.value;
}

export type LoadedDocument = { kind: 'crew'; doc: CrewDocument } | { kind: 'flow'; doc: FlowDocument };

/** A crew or a flow, by its `kind`. */
export function loadDocumentFile(file: string): LoadedDocument {
  const value = readJsonFile(file);
  if (value !== null && typeof value === 'object' && (value as { kind?: unknown }).kind === 'flow') {
    const parsed = parseFlowDocument(value);
    if (!parsed.ok) throw new DocumentInvalid(file, parsed.problems);
    return { kind: 'flow', doc: parsed.value };
  }
  const parsed = parseCrewDocument(value);
  if (!parsed.ok) throw new DocumentInvalid(file, parsed.problems);
  return { kind: 'crew', doc: parsed.value };
}

/** Problems of a crew or flow file, without throwing (for `crewdeck validate`): its shape, references and schemas. */
export function validateCrewFile(file: string): Problem[] {
  try {
    const loaded = loadDocumentFile(file);
    return loaded.kind === 'crew' ? schemaProblems(loaded.doc) : flowSchemaProblems(loaded.doc);
  } catch (error) {
    if (error instanceof DocumentInvalid) return error.problems;
    throw error;
  }
}

/** `crewdeck.json` of a workspace, when there is one. */
export function loadWorkspaceSettings(workspace: string): WorkspaceSettings | undefined {
  const file = join(workspace, WORKSPACE_SETTINGS_FILE);
  if (!existsSync(file)) return undefined;
  const result = WorkspaceSettingsSchema.safeParse(readJsonFile(file));
  if (!result.success) throw new DocumentInvalid(file, problemsFromZod(result.error));
  // The keys these settings name are cut from every output of this process from now on, also by code
  // that never reads them (listing memories, showing runs).
  registerWorkspaceSecrets(result.data);
  return result.data;
}

/** Warnings of a valid crew file (duplicate roles, empty expected outputs) or flow file (its imported CrewAI stubs); none for invalid files. */
export function crewFileWarnings(file: string): Problem[] {
  try {
    const loaded = loadDocumentFile(file);
    return loaded.kind === 'crew' ? crewWarnings(loaded.doc) : flowStubWarnings(loaded.doc);
  } catch (error) {
    if (error instanceof DocumentInvalid) return [];
    throw error;
  }
}
