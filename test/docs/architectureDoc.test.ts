import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** docs/ARCHITECTURE.md stays true: every repository path it names in backticks exists. */
const root = join(import.meta.dirname, '../..');
const doc = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8');
const FOLDERS = /^(shared|runtime|renderer|electron|test|docs|bench|scripts|e2e)\//;

/** The backticked paths of the page (`a/b.ts`, `runtime/cli/`, `.dependency-cruiser.cjs`). */
function namedPaths(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!).filter((p) => FOLDERS.test(p) || /^\.[\w.-]+$/.test(p));
}

describe('docs/ARCHITECTURE.md', () => {
  it('names the files of the run path, and each one exists', () => {
    const paths = namedPaths(doc);
    expect(paths.length).toBeGreaterThan(30);
    expect(paths.filter((p) => !existsSync(join(root, p)))).toEqual([]);
  });

  it('the path of one run goes from the Run button to a trace row in numbered steps', () => {
    const steps = [...doc.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1]));
    expect(steps).toEqual(steps.map((_, i) => i + 1));
    const section = doc.slice(doc.indexOf('## The path of one run'), doc.indexOf('## Where things live'));
    expect(namedPaths(section)[0]).toBe('renderer/Toolbar.tsx');
    expect(namedPaths(section)).toContain('renderer/panels/trace/TraceRow.tsx');
  });
});
