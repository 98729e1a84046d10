import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateCrewFile } from '../../runtime/document/loadDocument';

let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

function problems(extra: Record<string, unknown>, agentExtra: Record<string, unknown> = {}): string[] {
  dir = mkdtempSync(join(tmpdir(), 'crewdeck-kschema-'));
  const file = join(dir, 'c.crew.json');
  writeFileSync(
    file,
    JSON.stringify({
      kind: 'crew',
      version: 1,
      id: 'c',
      name: 'C',
      agents: [{ id: 'a', role: 'A', goal: 'g', ...agentExtra }],
      tasks: [{ id: 't', description: 'd', expectedOutput: 'e', agentId: 'a' }],
      ...extra,
    }),
  );
  return validateCrewFile(file).map((p) => `${p.path}: ${p.message}`);
}

describe('knowledge in the crew document', () => {
  it('accepts named file and URL sources and knowledge settings', () => {
    expect(
      problems({
        knowledge: [
          { type: 'file', path: 'docs/prices.csv', name: 'price list' },
          { type: 'url', url: 'https://example.com/faq', name: 'FAQ' },
          { type: 'text', name: 'policy', text: 'Refunds within 30 days.' },
        ],
        knowledgeSettings: { limit: 3, minScore: 0.3, chunkSize: 2000, chunkOverlap: 100 },
      }),
    ).toEqual([]);
  });

  it('reports bad settings and paths with their field paths', () => {
    const found = problems(
      { knowledge: [{ type: 'file', path: '../secret.pdf' }], knowledgeSettings: { limit: 0, minScore: 1.5, chunkSize: 500, chunkOverlap: 500 } },
      { knowledge: [{ type: 'file', path: '/etc/passwd' }] },
    );
    expect(found).toContain('knowledge.0.path: "../secret.pdf" leaves the workspace; use a path inside it');
    expect(found).toContain('agents.0.knowledge.0.path: "/etc/passwd" must be a path relative to the workspace, not an absolute path');
    expect(found.some((p) => p.startsWith('knowledgeSettings.limit: '))).toBe(true);
    expect(found.some((p) => p.startsWith('knowledgeSettings.minScore: '))).toBe(true);
    expect(found).toContain('knowledgeSettings.chunkOverlap: must be less than chunkSize (500)');
    expect(problems({ knowledgeSettings: { chunkOverlap: 4000 } })).toEqual(['knowledgeSettings.chunkOverlap: must be less than chunkSize (4000)']);
    expect(problems({ knowledgeSettings: { topK: 3 } })[0]).toMatch(/^knowledgeSettings: .*topK/);
  });
});
