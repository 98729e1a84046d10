import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRuntimeEvent } from '../../shared/eventSchema';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../fixtures');
const files = readdirSync(fixtures).filter((name) => name.endsWith('.jsonl')).sort();

describe('recorded event fixtures match the event union', () => {
  it('there are fixtures to check', () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
  });

  it.each(files)('%s: every line parses with the event schema, seq 1..n without gaps', (name) => {
    const lines = readFileSync(join(fixtures, name), 'utf8').split('\n').filter((line) => line.trim() !== '');
    const problems: string[] = [];
    lines.forEach((line, i) => {
      const parsed = parseRuntimeEvent(JSON.parse(line));
      if (!parsed.ok) problems.push(`line ${i + 1}: ${parsed.problem}`);
    });
    expect(problems).toEqual([]);
    expect(lines.map((line) => JSON.parse(line).seq)).toEqual(lines.map((_, i) => i + 1));
  });
});

describe('parseRuntimeEvent', () => {
  const started = { type: 'run.started', runId: 'run_1', seq: 1, ts: 1, spanId: 's1', documentId: 'c', documentName: 'C', process: 'sequential', inputs: {}, stepIds: ['a'] };

  it('accepts a well-formed event', () => {
    expect(parseRuntimeEvent(started)).toMatchObject({ ok: true });
  });

  it('names an old field shape, a missing field, an unknown type and a bad envelope', () => {
    const { documentId: _d, documentName: _n, stepIds: _s, ...rest } = started;
    const old = parseRuntimeEvent({ ...rest, crewId: 'c', crewName: 'C', taskIds: ['a'] });
    expect(old.ok).toBe(false);
    expect(!old.ok && old.problem).toMatch(/^run\.started: .*documentId.*/);
    expect(!old.ok && old.problem).toMatch(/crewId/);
    expect(parseRuntimeEvent({ ...started, type: 'run.exploded' })).toEqual({ ok: false, problem: 'unknown event type "run.exploded"' });
    const envelope = parseRuntimeEvent({ ...started, spanId: '' });
    expect(!envelope.ok && envelope.problem).toMatch(/spanId/);
  });
});
