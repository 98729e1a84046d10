import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CrewAiConfigKeyMissing, CrewAiImportInvalid, CrewAiPlainScript, CrewAiProjectNotFound, CrewAiYamlInvalid } from '../crewai/crewAiErrors';
import { importCrewAiProject, type UnmappedItem } from '../crewai/importProject';
import { ToolError } from '../tools/tool';
import { resolveInWorkspace } from '../tools/workspacePath';
import { HostBadInput } from './hostErrors';
import type { WorkspaceDocuments } from './workspaceDocuments';

/**
 * `documents.importCrewai`: imports the CrewAI project at `dir`, a folder inside the workspace (the
 * renderer is untrusted: it may not make the runtime read files elsewhere; `crewdeck import` takes
 * any folder), and saves each crew as `<crew id>.crew.json` at the workspace root (`-2`, `-3`… when
 * taken). The first crew is the main document, the one the app opens.
 */
export function importCrewAiIntoWorkspace(
  workspace: string,
  documents: WorkspaceDocuments,
  dir: string,
): { path: string; documents: { path: string; kind: 'crew' }[]; unmapped: UnmappedItem[]; sourceFiles: string[] } {
  let result;
  try {
    result = importCrewAiProject(resolveInWorkspace(workspace, dir));
  } catch (error) {
    if (error instanceof ToolError) {
      throw new HostBadInput(`the CrewAI project must be a folder inside the workspace (copy it there, or use \`crewdeck import\`): ${error.message.replace(/; file tools.*$/, '')}`);
    }
    if (error instanceof CrewAiProjectNotFound || error instanceof CrewAiYamlInvalid || error instanceof CrewAiImportInvalid || error instanceof CrewAiPlainScript || error instanceof CrewAiConfigKeyMissing) {
      throw new HostBadInput(error.message);
    }
    throw error;
  }
  const written = result.crews.map((crew) => {
    let path = `${crew.id}.crew.json`;
    for (let n = 2; existsSync(join(workspace, path)); n += 1) path = `${crew.id}-${n}.crew.json`;
    documents.save(path, crew);
    return { path, kind: 'crew' as const };
  });
  return { path: written[0].path, documents: written, unmapped: result.unmapped, sourceFiles: result.sourceFiles };
}
