import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { McpServerSettings } from '../../shared/model/mcpSettings';
import { digestOf, type HeldPart } from './heldPart';
import { serverRunFiles, workspaceRelative } from './runFiles';

/**
 * One held part per workspace file an MCP server runs (`runFiles.ts`): its digest covers the file's
 * path and the sha256 of its content, so a file changed by hand, by a `git pull` or by anything else
 * holds the server again until the user trusts it as it is now.
 */
export function mcpFileParts(name: string, server: McpServerSettings, workspace: string, env: NodeJS.ProcessEnv = process.env): HeldPart[] {
  return serverRunFiles(server, workspace, env).map(({ file, role }) => {
    const rel = workspaceRelative(workspace, file);
    const sha256 = fileSha256(file);
    return {
      kind: 'command',
      where: `crewdeck.json mcp.servers.${name}`,
      summary: `runs the workspace file ${rel} (${role}; sha256 ${sha256.slice(0, 12)})`,
      digest: digestOf({ mcpFile: name, path: rel, sha256 }),
      file: { path: rel, sha256 },
    };
  });
}

/** Hashes already taken, by path, valid while the file's size, inode and change time stay the same. */
const hashes = new Map<string, { stamp: string; sha256: string }>();

/** The sha256 of a file's bytes, hex; a file that cannot be read hashes as its error, so it is never trusted by accident. */
export function fileSha256(file: string): string {
  try {
    const stat = statSync(file);
    const stamp = `${stat.size}:${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}`;
    const known = hashes.get(file);
    if (known?.stamp === stamp) return known.sha256;
    const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
    hashes.set(file, { stamp, sha256 });
    return sha256;
  } catch (error) {
    return createHash('sha256').update(`unreadable: ${(error as NodeJS.ErrnoException).code ?? String(error)}`).digest('hex');
  }
}

/**
 * The part as a person should read it when its file was trusted with other content: "…, which changed
 * since you trusted it". `trustedSha256` is what the trust record holds for the file's path.
 */
export function notedChange(part: HeldPart, trustedSha256: string | undefined): HeldPart {
  if (!part.file || trustedSha256 === undefined || trustedSha256 === part.file.sha256) return part;
  return { ...part, summary: `runs the workspace file ${part.file.path}, which changed since you trusted it (sha256 ${trustedSha256.slice(0, 12)} then, ${part.file.sha256.slice(0, 12)} now)` };
}
