import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** A JSON file in userData that exists but cannot be read or parsed. */
export class JsonFileUnreadable extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path} is not readable: ${reason}`);
    this.name = 'JsonFileUnreadable';
  }
}

/** The parsed file, or undefined when it does not exist. Throws JsonFileUnreadable otherwise. */
export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new JsonFileUnreadable(path, (error as Error).message);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new JsonFileUnreadable(path, `not JSON (${(error as Error).message})`);
  }
}

/** Writes through a temporary file and a rename, so a crash never leaves half a file. */
export function writeJsonFileAtomic(path: string, value: unknown, mode = 0o600): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode });
  renameSync(temporary, path);
}
