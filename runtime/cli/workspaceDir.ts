import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { WorkspaceInvalid } from '../errors';

/** The absolute workspace folder, which must exist. */
export function workspaceDir(path: string): string {
  const dir = resolve(path);
  let isDirectory = false;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    throw new WorkspaceInvalid(`workspace "${path}" does not exist`);
  }
  if (!isDirectory) throw new WorkspaceInvalid(`workspace "${path}" is not a folder`);
  return dir;
}
