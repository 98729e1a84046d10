import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RuntimeEvent } from '../../../shared/events';
import { parseRuntimeEvent } from '../../../shared/eventSchema';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const root = (path: string) => resolve(repo, path);

/**
 * A recorded event log from test/fixtures (one RuntimeEvent per line, `crewdeck runs events --json`),
 * each line parsed with the event schema: a stale fixture fails here, not silently in a reducer test.
 */
export function recordedEvents(name: string): RuntimeEvent[] {
  return readFileSync(root(`test/fixtures/${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      const parsed = parseRuntimeEvent(JSON.parse(line));
      if (!parsed.ok) throw new Error(`test/fixtures/${name}.jsonl line ${i + 1}: ${parsed.problem} (regenerate with scripts/recordFixtures.ts)`);
      return parsed.event;
    });
}

/** An example crew document as stored with a run (`runs.get` returns it). */
export function exampleDocument(name: string): unknown {
  return JSON.parse(readFileSync(root(`examples/${name}.crew.json`), 'utf8'));
}
