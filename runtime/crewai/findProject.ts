import { readdirSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';

/** Folders never searched: dependencies, virtual environments, VCS and caches. */
const SKIPPED = new Set(['node_modules', '.venv', 'venv', 'env', '.git', '__pycache__', '.mypy_cache', '.pytest_cache', '.tox', 'site-packages', '.crewdeck']);
const MAX_DEPTH = 8;
/** Files listed at most (a downloaded folder is untrusted; a CrewAI project has tens). */
const MAX_FILES = 3000;

/** The .py and .yaml files of a project folder, skipping dependencies, virtual environments and caches. */
export function walk(dir: string, depth = 0, out: string[] = []): string[] {
  if (depth > MAX_DEPTH || out.length >= MAX_FILES) return out;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) walk(join(dir, entry.name), depth + 1, out);
    } else if (entry.isFile() && /\.(ya?ml|py)$/.test(entry.name) && out.length < MAX_FILES) {
      out.push(join(dir, entry.name));
    }
  }
  return out;
}

/** Whether `file` (symlinks followed) is inside the project folder `root`: config paths never lead out of it. */
export function insideProject(root: string, file: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  const rel = relative(real(root), real(file));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
