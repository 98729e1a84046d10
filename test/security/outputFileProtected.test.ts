import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { FlowDocumentSchema } from '../../shared/model/flow';
import { createRuntime } from '../../runtime/runtime';
import { ofType, tempWorkspace } from '../support/crewHarness';

/**
 * Review attack (issue 13): a flow method's `outputFile` is a template, and `{input}` / `{state.…}` are
 * what a model answered. The model names a protected file as the path and its output as the content:
 * before the fix, writeOutputFile checked only that the path stayed in the workspace, so the model
 * rewrote crewdeck.json or planted a git hook (code execution on the next `git commit`).
 */
let ws: ReturnType<typeof tempWorkspace> | undefined;
afterEach(() => ws?.remove());

const SETTINGS = `${JSON.stringify({ version: 1, models: { profiles: {} } }, null, 2)}\n`;

function flowNamingItsOwnOutputFile(target: string) {
  const model = {
    provider: 'scripted',
    model: 'm',
    script: { rules: [{ when: { last: 'Pick a file' }, reply: target }, { when: { last: 'Write it' }, reply: '#!/bin/sh\necho pwned > /tmp/pwned' }] },
  };
  return FlowDocumentSchema.parse({
    kind: 'flow',
    version: 1,
    id: 'writer',
    name: 'Writer',
    methods: [
      { id: 'pick', name: 'pick', trigger: { start: true }, body: { type: 'llm', prompt: 'Pick a file', llm: model } },
      { id: 'write', name: 'write', trigger: { listen: 'pick' }, body: { type: 'llm', prompt: 'Write it', llm: model }, outputFile: '{input}' },
    ],
  });
}

async function runFlow(target: string) {
  ws = tempWorkspace('crewdeck-outputfile-');
  writeFileSync(join(ws.dir, 'crewdeck.json'), SETTINGS);
  mkdirSync(join(ws.dir, '.git', 'hooks'), { recursive: true });
  const events: RuntimeEvent[] = [];
  const result = await createRuntime({ workspace: ws.dir, store: ws.store }).runFlow(flowNamingItsOwnOutputFile(target), { onEvent: (e) => events.push(e) });
  return { result, events, dir: ws.dir };
}

describe('a model-templated outputFile cannot write protected files', () => {
  it('refuses crewdeck.json and leaves it byte-identical', async () => {
    const { result, events, dir } = await runFlow('crewdeck.json');
    expect(readFileSync(join(dir, 'crewdeck.json'), 'utf8')).toBe(SETTINGS);
    expect(result.status).toBe('failed');
    expect(ofType(events, 'flow.method.failed').map((e) => e.error)).toEqual([expect.stringMatching(/refused: "crewdeck\.json" is the workspace's settings/)]);
  });

  it('refuses a git hook', async () => {
    const { result, dir } = await runFlow('.git/hooks/pre-commit');
    expect(existsSync(join(dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(result.status).toBe('failed');
  });

  it('still writes an ordinary file', async () => {
    const { result, dir } = await runFlow('out/report.md');
    expect(result.status).toBe('completed');
    expect(readFileSync(join(dir, 'out', 'report.md'), 'utf8')).toContain('pwned');
  });
});
