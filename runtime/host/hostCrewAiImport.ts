import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CrewAiConfigKeyMissing, CrewAiImportInvalid, CrewAiProjectNotFound, CrewAiYamlInvalid } from '../crewai/crewAiErrors';
import { importCrewAiProject, type UnmappedItem } from '../crewai/importProject';
import { withCrewFiles } from '../crewai/importFlow';
import { ImportFileExists, writeImportExtras } from '../crewai/writeImport';
import { ToolError } from '../tools/tool';
import { resolveInWorkspace } from '../tools/workspacePath';
import { HostBadInput } from './hostErrors';
import type { WorkspaceDocuments } from './workspaceDocuments';

/**
 * `documents.importCrewai`: imports the CrewAI project at `dir`, a folder inside the workspace (the
 * renderer is untrusted: it may not make the runtime read files elsewhere; `crewdeck import` takes
 * any folder), and saves each crew as `<crew id>.crew.json` at the workspace root (`-2`, `-3`… when
 * taken), and a Flow project's flow as `<flow id>.flow.json`. The flow (else the first crew) is the
 * main document, the one the app opens.
 */
export async function importCrewAiIntoWorkspace(
  workspace: string,
  documents: WorkspaceDocuments,
  dir: string,
): Promise<{ path: string; documents: { path: string; kind: 'crew' | 'flow' }[]; unmapped: UnmappedItem[]; sourceFiles: string[] }> {
  let result;
  try {
    result = await importCrewAiProject(resolveInWorkspace(workspace, dir));
  } catch (error) {
    if (error instanceof ToolError) {
      throw new HostBadInput(`the CrewAI project must be a folder inside the workspace (copy it there, or use \`crewdeck import\`): ${error.message.replace(/; file tools.*$/, '')}`);
    }
    if (error instanceof CrewAiProjectNotFound || error instanceof CrewAiYamlInvalid || error instanceof CrewAiImportInvalid || error instanceof CrewAiConfigKeyMissing) {
      throw new HostBadInput(error.message);
    }
    throw error;
  }
  let notes;
  try {
    notes = writeImportExtras(workspace, result);
  } catch (error) {
    if (error instanceof ImportFileExists) throw new HostBadInput(`the import would replace ${error.path} in the workspace, which holds a different file of that name; move it away and import again`);
    throw error;
  }
  result.unmapped.push(...notes);
  const renamed = new Map<string, string>();
  const written: { path: string; kind: 'crew' | 'flow' }[] = result.crews.map((crew) => {
    let path = `${crew.id}.crew.json`;
    for (let n = 2; existsSync(join(workspace, path)); n += 1) path = `${crew.id}-${n}.crew.json`;
    documents.save(path, crew);
    renamed.set(`${crew.id}.crew.json`, path);
    return { path, kind: 'crew' as const };
  });
  // A Flow project: the flow is the main document; its crew bodies name the crew files as saved.
  if (result.flow) {
    const flow = withCrewFiles(result.flow, renamed);
    let path = `${flow.id}.flow.json`;
    for (let n = 2; existsSync(join(workspace, path)); n += 1) path = `${flow.id}-${n}.flow.json`;
    documents.save(path, flow);
    written.unshift({ path, kind: 'flow' });
  }
  const [main] = written;
  if (main === undefined) throw new HostBadInput('the CrewAI project holds no crew or flow to import');
  return { path: main.path, documents: written, unmapped: result.unmapped, sourceFiles: result.sourceFiles };
}
