import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CrewAiProjectNotFound } from './crewAiErrors';

/** Folders never searched: dependencies, virtual environments, VCS and caches. */
const SKIPPED = new Set(['node_modules', '.venv', 'venv', 'env', '.git', '__pycache__', '.mypy_cache', '.pytest_cache', '.tox', 'site-packages', '.crewdeck']);
const MAX_DEPTH = 8;

/** Absolute paths of the files that make up a CrewAI project. */
export interface CrewAiProjectFiles {
  root: string;
  agentsYaml: string;
  tasksYaml: string;
  crewPy?: string;
  mainPy?: string;
  pyproject?: string;
}

/**
 * Finds agents.yaml and tasks.yaml wherever the project keeps them (typically src/<pkg>/config/).
 * A crew.py with @CrewBase wins: its agents_config/tasks_config paths say which files it loads.
 */
export function findCrewAiProject(dir: string): CrewAiProjectFiles {
  return findCrewAiProjects(dir)[0];
}

/**
 * Every crew of the project: one entry per crew.py with @CrewBase whose YAML files exist (a CrewAI
 * Flow project keeps one per crew under crews/<name>/), shallowest first; or, without any, the first
 * agents.yaml + tasks.yaml pair. Throws CrewAiProjectNotFound when there is neither.
 */
export function findCrewAiProjects(dir: string): CrewAiProjectFiles[] {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new CrewAiProjectNotFound(root, 'the folder does not exist');
  const files = walk(root);
  const crewPys = files.filter((f) => /crew[^\\/]*\.py$/i.test(f)).filter((f) => /@CrewBase\b/.test(safeRead(f)));
  crewPys.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));

  const found: CrewAiProjectFiles[] = [];
  for (const crewPy of crewPys) {
    const src = safeRead(crewPy);
    const configured = (attr: string, fallback: string) => {
      // Horizontal whitespace only: `^\\s*` under the m flag is quadratic on a file of blank lines (40 KB: 7 s).
      const m = new RegExp(`^[ \\t]*${attr}[ \\t]*(?::[^=\n]*)?=[ \\t]*['"]([^'"]+)['"]`, 'm').exec(src);
      const file = resolve(dirname(crewPy), m ? m[1] : fallback);
      // A config path leading out of the project folder (`../../.aws/x.yaml`, or a symlink) is not followed.
      return insideProject(root, file) ? file : resolve(dirname(crewPy), fallback);
    };
    const agentsYaml = configured('agents_config', 'config/agents.yaml');
    const tasksYaml = configured('tasks_config', 'config/tasks.yaml');
    if (existsSync(agentsYaml) && existsSync(tasksYaml)) found.push(complete(root, { root, agentsYaml, tasksYaml, crewPy }));
  }
  if (found.length > 0) return found;

  const agentsFiles = files.filter((f) => /[\\/]agents\.ya?ml$/.test(f)).sort((a, b) => rank(a) - rank(b));
  for (const agentsYaml of agentsFiles) {
    const tasksYaml = ['tasks.yaml', 'tasks.yml'].map((n) => join(dirname(agentsYaml), n)).find((f) => existsSync(f));
    if (!tasksYaml) continue;
    const pkg = dirname(dirname(agentsYaml));
    const crewPy = [join(pkg, 'crew.py'), join(dirname(agentsYaml), 'crew.py')].find((f) => existsSync(f));
    return [complete(root, { root, agentsYaml, tasksYaml, crewPy })];
  }
  throw new CrewAiProjectNotFound(
    root,
    agentsFiles.length > 0
      ? `found ${relative(root, agentsFiles[0])} but no tasks.yaml next to it`
      : 'no config/agents.yaml and config/tasks.yaml anywhere in it (node_modules, .venv and .git are not searched)',
  );
}

/** Adds main.py (next to crew.py) and the nearest pyproject.toml at or above the package. */
function complete(root: string, files: CrewAiProjectFiles): CrewAiProjectFiles {
  const pkg = files.crewPy ? dirname(files.crewPy) : dirname(dirname(files.agentsYaml));
  // main.py next to crew.py, or above it (a project of several crews keeps them in crews/<name>/).
  for (let d = pkg; d.startsWith(root); d = dirname(d)) {
    if (existsSync(join(d, 'main.py'))) {
      files.mainPy = join(d, 'main.py');
      break;
    }
    if (d === root || dirname(d) === d) break;
  }
  for (let d = pkg; ; d = dirname(d)) {
    if (existsSync(join(d, 'pyproject.toml'))) {
      files.pyproject = join(d, 'pyproject.toml');
      break;
    }
    if (d === root || dirname(d) === d || !d.startsWith(root)) break;
  }
  return files;
}

/** Shallower files and ones under a `config` folder come first. */
function rank(file: string): number {
  return file.split(sep).length * 2 - (/[\\/]config[\\/]/.test(file) ? 1 : 0);
}

/** The .py and .yaml files of a project folder, skipping dependencies, virtual environments and caches. */
export function walk(dir: string, depth = 0, out: string[] = []): string[] {
  if (depth > MAX_DEPTH) return out;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) walk(join(dir, entry.name), depth + 1, out);
    } else if (entry.isFile() && /\.(ya?ml|py)$/.test(entry.name)) {
      out.push(join(dir, entry.name));
    }
  }
  return out;
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
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
