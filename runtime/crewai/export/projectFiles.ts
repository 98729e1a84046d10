import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { redactKnown } from '../../redactSecrets';
import { CrewAiExportFailed } from '../crewAiErrors';

/** The export target must be a folder that is empty or new (or `overwrite` is given). */
export function assertExportTarget(root: string, overwrite: boolean | undefined): void {
  if (existsSync(root)) {
    if (!statSync(root).isDirectory()) throw new CrewAiExportFailed(`${root} is a file; give a folder to export into`);
    if (!overwrite && readdirSync(root).length > 0) throw new CrewAiExportFailed(`${root} is not empty; choose an empty or new folder`);
  }
}

/** Writes the project's files (project-relative path → content, secrets redacted); returns their paths. */
export function writeProjectFiles(root: string, files: Map<string, string>): string[] {
  const written: string[] = [];
  for (const [path, content] of files) {
    const full = join(root, ...path.split('/'));
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, redactKnown(content));
    written.push(relative(root, full).split(sep).join('/'));
  }
  return written;
}

/** Copies the files a crew names (those its workspace has) into the project; returns what was copied. */
export function copyAlong(root: string, copies: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [path, from] of copies) {
    if (!existsSync(from) || !statSync(from).isFile()) continue;
    const target = join(root, ...path.split('/'));
    mkdirSync(dirname(target), { recursive: true });
    // Text goes through the same redaction as every other file an export writes; binary files are copied.
    if (/\.(txt|md|markdown|csv|json|ya?ml|xml|html?)$/i.test(path)) writeFileSync(target, redactKnown(readFileSync(from, 'utf8')));
    else copyFileSync(from, target);
    out.push(path);
  }
  return out;
}
