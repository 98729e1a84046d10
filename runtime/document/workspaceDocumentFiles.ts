import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const DOCUMENT_FILE = /\.(crew|flow)\.json$/i;
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.crewdeck', 'dist']);

/**
 * Absolute paths of the `*.crew.json` and `*.flow.json` files under a workspace (six folders deep,
 * skipping node_modules, dist, .git and .crewdeck; symbolic links are not followed).
 */
export function workspaceDocumentFiles(workspace: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (SKIPPED_DIRS.has(entry.name.toLowerCase())) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < 6) walk(full, depth + 1);
      } else if (entry.isFile() && DOCUMENT_FILE.test(entry.name)) out.push(full);
    }
  };
  walk(workspace, 0);
  return out.sort();
}
