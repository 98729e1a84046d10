import { z } from 'zod';

/**
 * Why a path written in a document cannot name a file inside the workspace, or undefined when it can.
 * A static check (no file system): the runtime checks again, symlinks included, when it writes.
 */
export function workspacePathProblem(path: string): string | undefined {
  if (/^([/\\]|[A-Za-z]:)/.test(path)) return 'must be a path relative to the workspace, not an absolute path';
  let depth = 0;
  const segments = path.split(/[/\\]+/).filter((s) => s !== '' && s !== '.');
  for (const segment of segments) {
    depth += segment === '..' ? -1 : 1;
    if (depth < 0) return 'leaves the workspace; use a path inside it';
  }
  if (segments[0] === '.crewdeck') return "is inside .crewdeck/, Crewdeck's own data folder";
  return undefined;
}

export const WorkspacePathSchema = z
  .string()
  .min(1)
  .superRefine((path, ctx) => {
    const problem = workspacePathProblem(path);
    if (problem) ctx.addIssue({ code: 'custom', message: `"${path}" ${problem}` });
  });
