import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { WORKSPACE_SETTINGS_FILE } from '../../shared/model/workspace';
import type { DeploymentContent } from './deployments';

/**
 * A published version laid out as a workspace on the worker's disk (`<dataDir>/deployments/<id>/v<n>`):
 * the document at its path, the files it names, and its settings as crewdeck.json. Versions are
 * immutable, so a folder once written is used as it is; it is written under a temporary name and renamed,
 * so two jobs (or workers sharing the folder) never see half of one.
 */
export function deploymentWorkspace(dataDir: string, content: DeploymentContent): string {
  const dir = resolve(dataDir, 'deployments', content.deploymentId, `v${content.version}`);
  if (existsSync(dir)) return dir;
  const temp = `${dir}.tmp-${randomBytes(4).toString('hex')}`;
  const write = (path: string, text: string) => {
    const file = resolve(temp, path);
    if (!file.startsWith(temp + sep)) throw new Error(`deployment file "${path}" is outside its workspace`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  mkdirSync(temp, { recursive: true });
  try {
    for (const [path, text] of Object.entries(content.files)) write(path, text);
    write(content.documentPath, `${JSON.stringify(content.document, null, 2)}\n`);
    if (content.settings) write(WORKSPACE_SETTINGS_FILE, `${JSON.stringify(content.settings, null, 2)}\n`);
    try {
      renameSync(temp, dir);
    } catch (error) {
      // Another job wrote the same version first: theirs is as good as ours.
      if (!existsSync(dir)) throw error;
      rmSync(temp, { recursive: true, force: true });
    }
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

/** The document's absolute path in the version's workspace. */
export function deploymentDocumentFile(dir: string, content: DeploymentContent): string {
  return join(dir, ...content.documentPath.split('/'));
}
