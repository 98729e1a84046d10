import fs from 'node:fs';
import path from 'node:path';
import { ToolError } from './tool';

const MAX_LINK_HOPS = 40;

/**
 * Resolves a path given by an agent to an absolute path inside the workspace, or throws a ToolError.
 * Relative paths resolve against the workspace; absolute paths must already be inside it; `..` escapes
 * are refused; so are symbolic links (anywhere on the path, dangling or not) that lead outside, and
 * anything inside the workspace's `.crewdeck/` data folder.
 */
export function resolveInWorkspace(workspace: string, userPath: string): string {
  if (typeof userPath !== 'string') throw new ToolError('path must be a string');
  if (userPath.includes('\0')) throw new ToolError(`path ${JSON.stringify(userPath)} contains a NUL character`);

  const lexicalRoot = path.resolve(workspace);
  const realRoot = realpathOrSelf(lexicalRoot);
  const target = path.resolve(lexicalRoot, userPath === '' ? '.' : userPath);
  const outside = () =>
    new ToolError(
      `path ${JSON.stringify(userPath)} is outside the workspace; file tools can only use files under ${lexicalRoot}`,
    );

  // An absolute path may name the workspace by its real location (e.g. /private/var/… for /var/…).
  const base = isInside(lexicalRoot, target) ? lexicalRoot : isInside(realRoot, target) ? realRoot : undefined;
  if (base === undefined) throw outside();

  const real = realPathOfNearestExisting(target, userPath);
  if (!isInside(realRoot, real)) {
    throw new ToolError(
      `path ${JSON.stringify(userPath)} leads outside the workspace through a symbolic link; ` +
        `file tools can only use files under ${lexicalRoot}`,
    );
  }
  const relative = path.relative(base, target);
  if (comparableName(relative.split(path.sep)[0]!) === DATA_FOLDER) {
    throw new ToolError(`path ${JSON.stringify(userPath)} is inside ${DATA_FOLDER}/, Crewdeck's own data folder, which tools may not touch`);
  }
  return path.join(lexicalRoot, relative);
}

/** Runs, events and memory live here; agents must not read or overwrite them. */
const DATA_FOLDER = '.crewdeck';

/**
 * A path segment as a file system that does not tell names apart sees it: case folded the Unicode way
 * (macOS folds `ſ` to `s` and the Kelvin sign to `k`; toUpperCase before toLowerCase does too), NFC, and
 * without what Windows ignores or reads as a stream (trailing dots and spaces, `:stream`). So
 * `CrewDeck.JSON`, `crewdeck.jſon`, `crewdeck.json.` and `.git::$DATA` all name a protected file.
 */
export function comparableName(segment: string): string {
  return segment.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC').replace(/:.*$/s, '').replace(/[. ]+$/, '') || segment;
}

/** The path relative to the workspace with forward slashes, for messages ("." for the workspace itself). */
export function displayPath(workspace: string, absolute: string): string {
  const rel = path.relative(path.resolve(workspace), absolute);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel));
}

function realpathOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * The real path `p` would have: the realpath of its nearest existing ancestor plus the missing tail.
 * Dangling symbolic links are followed by hand, so a link to a not-yet-existing outside file is caught.
 */
export function realPathOfNearestExisting(p: string, userPath: string): string {
  const tail: string[] = [];
  let current = p;
  let hops = 0;
  for (;;) {
    try {
      return path.join(fs.realpathSync(current), ...tail);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        throw new ToolError(`cannot resolve path ${JSON.stringify(userPath)}: ${(error as Error).message}`);
      }
    }
    const link = readDanglingLink(current);
    if (link !== undefined) {
      hops += 1;
      if (hops > MAX_LINK_HOPS) throw new ToolError(`path ${JSON.stringify(userPath)} has too many symbolic links`);
      current = path.resolve(path.dirname(current), link);
      continue;
    }
    const parent = path.dirname(current);
    if (parent === current) return path.join(current, ...tail);
    tail.unshift(path.basename(current));
    current = parent;
  }
}

function readDanglingLink(p: string): string | undefined {
  try {
    return fs.lstatSync(p).isSymbolicLink() ? fs.readlinkSync(p) : undefined;
  } catch {
    return undefined;
  }
}
