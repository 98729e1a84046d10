import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import type { FlowDocument } from '../../shared/model/flow';
import { importCrewAiProject } from '../../runtime/crewai/importProject';
import { createRuntime } from '../../runtime/runtime';
import { ofType, tempWorkspace } from '../support/crewHarness';

/**
 * Python text never becomes JavaScript: a character that ends a line in JavaScript but not in Python
 * (U+2028, U+2029) inside a Python comment or string must not turn the rest of that line into code in
 * the generated QuickJS scripts. Each case imports a Flow whose comments and strings carry JavaScript
 * after such a character, runs it, and checks the state is what the Python says (and the stub stays a
 * stub), not what the hidden JavaScript would make it.
 */
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Pieces a payload is built from: line terminators JavaScript knows and Python does not, and code. */
const TERMINATORS = ['\u2028', '\u2029', '\u0085', '\u000b', '\u000c'];
const CODE = ['state.count = 99;', 'return "hijacked";', '*/', '//', '"', "'", '`', '${state.count}', '\\', ' é ', 'x'];

/** A small seeded generator (mulberry32), so each case can be reproduced from its number. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function payload(next: () => number): string {
  const parts: string[] = [];
  const n = 2 + Math.floor(next() * 6);
  for (let i = 0; i < n; i += 1) {
    const pool = i % 2 === 0 ? TERMINATORS : CODE;
    parts.push(pool[Math.floor(next() * pool.length)]!);
  }
  return parts.join('');
}

/** A Python double-quoted string literal whose value is `text` (only what Python itself must escape). */
const pyString = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

function project(comment: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'crewdeck-terminators-'));
  temps.push(dir);
  mkdirSync(join(dir, 'src/terms'), { recursive: true });
  writeFileSync(join(dir, 'pyproject.toml'), '[project]\nname = "terms"\nversion = "0.1.0"\ndependencies = ["crewai"]\n');
  writeFileSync(join(dir, 'src/terms/__init__.py'), '');
  writeFileSync(
    join(dir, 'src/terms/main.py'),
    [
      'import requests',
      'from pydantic import BaseModel',
      'from crewai.flow.flow import Flow, listen, start',
      '',
      '',
      'class TermState(BaseModel):',
      '    note: str = ""',
      '    count: int = 0',
      '',
      '',
      'class TermFlow(Flow[TermState]):',
      '    @start()',
      '    def begin(self):',
      `        # ${comment}`,
      `        self.state.note = ${pyString(text)}  # ${comment}`,
      '        self.state.count = 1',
      '',
      '    @listen(begin)',
      '    def notify(self):',
      `        # ${comment}`,
      `        requests.post("https://hooks.example.invalid/notify", json={"text": ${pyString(text)}})`,
      '',
      '    @listen(notify)',
      '    def finish(self):',
      '        self.state.count += 1',
      '',
      '',
      'def kickoff():',
      '    TermFlow().kickoff()',
      '',
    ].join('\n'),
  );
  return dir;
}

async function importAndRun(comment: string, text: string) {
  const imported = await importCrewAiProject(project(comment, text));
  const flow = imported.flow as FlowDocument;
  const ws = tempWorkspace('crewdeck-terminators-run-');
  temps.push(ws.dir);
  const events: RuntimeEvent[] = [];
  const result = await createRuntime({ workspace: ws.dir, store: ws.store }).runFlow(flow, { onEvent: (e) => events.push(e) });
  return { imported, flow, result, events };
}

describe('the importer never turns Python text into JavaScript', () => {
  it('reported case: a U+2028 in a comment and a string of a transpiled method does not set state', async () => {
    const { flow, result } = await importAndRun('looks harmless\u2028state.count = 99;', 'hello\u2028state.count = 99; //');
    expect(result.status).toBe('completed');
    expect(result.state).toEqual({ note: 'hello\u2028state.count = 99; //', count: 2 });
    for (const m of flow.methods) if (m.body.type === 'script') expect(m.body.code).not.toContain('state.count = 99;\n');
  });

  it('reported case: a U+2028 in a stub method does not change its output or the state (the stub passes its input on and says so)', async () => {
    const { imported, flow, result, events } = await importAndRun('x\u2028return "hijacked";', 'y\u2029return "hijacked";');
    const notify = flow.methods.find((m) => m.name === 'notify')!;
    expect(notify.body.type === 'script' && notify.body.stub ? notify.body.code : undefined).toBe('return input;');
    expect(imported.unmapped.map((u) => u.item.split(':')[0])).toContain('notify');
    expect(ofType(events, 'flow.stub.reached').map((e) => e.methodName)).toEqual(['notify']);
    expect(ofType(events, 'flow.method.completed').find((e) => e.methodName === 'notify')?.output).not.toBe('hijacked');
    expect(result.state.count).toBe(2);
  });

  it('property: 40 generated payloads in comments and strings — the state is always what the Python says', async () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const next = random(seed);
      const comment = payload(next);
      const text = payload(next);
      const { result, events, flow } = await importAndRun(comment, text);
      const at = `seed ${seed}: comment ${JSON.stringify(comment)}, text ${JSON.stringify(text)}`;
      expect(result.status, at).toBe('completed');
      expect(result.state, at).toEqual({ note: text, count: 2 });
      expect(ofType(events, 'flow.stub.reached').map((e) => e.methodName), at).toEqual(['notify']);
      // No script carries the comment's text at all: comments are dropped, strings are JSON constants.
      const code = flow.methods.map((m) => (m.body.type === 'script' ? m.body.code : '')).join('\n');
      if (comment.trim() !== '') expect(code.includes(comment), at).toBe(false);
    }
  });
});
