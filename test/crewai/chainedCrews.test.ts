import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { importCrewAiProject } from '../../runtime/crewai/importProject';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { trustWorkspace } from '../support/trustWorkspace';
import { describeResult, parseSingleJson, runCli, tempDir, type TempWorkspace } from '../cli/cliHarness';

/**
 * Crews a plain script runs one after another, each given what the one before returned, import as a
 * flow that runs them in that order; through the real CLI on the scripted server, each crew's prompt
 * carries the output it was given.
 */
const patterns = join(import.meta.dirname, '../fixtures/crewai/patterns');
vi.setConfig({ testTimeout: 180_000 });
let server: ScriptedServer;
let ws: TempWorkspace | undefined;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => {
  ws?.remove();
  ws = undefined;
  server.setHandler(undefined);
  server.requests.length = 0;
});

const chats = () => server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const system = (body: any): string => body.messages.find((m: { role: string }) => m.role === 'system')?.content ?? '';
const user = (body: any): string => body.messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: string }) => m.content).join('\n');
/** The role each model call was made for (the agent's "You are <role>." line), in call order. */
const roles = () => chats().map((r) => /You are ([^.\n]+)\./.exec(system(r.body))?.[1]);

async function importAndRun(name: string, inputs: string[] = []) {
  ws = tempDir(`crewdeck-chained-${name}-`);
  const imported = await runCli(['import', join(patterns, name), '-o', 'imported', '--json'], { cwd: ws.dir });
  expect(imported.code, describeResult(imported)).toBe(0);
  const out = parseSingleJson(imported);
  const dir = ws.path('imported');
  ws.write('imported/crewdeck.json', { version: 1, models: { profiles: { scripted: { provider: 'openai', model: 'chain-model', baseUrl: server.baseUrl, maxRetries: 0 } } } });
  trustWorkspace(dir);
  for (const doc of out.documents) {
    const v = await runCli(['validate', doc.path], { cwd: dir });
    expect(v.code, describeResult(v)).toBe(0);
  }
  const run = await runCli(['run', out.documents[0].path, '--model', 'scripted', '--json', ...inputs], { cwd: dir, timeoutMs: 90_000 });
  expect(run.code, describeResult(run)).toBe(0);
  return { documents: out.documents as { path: string; kind: string }[], run: parseSingleJson(run) };
}

describe('crews chained in plain Python import as a flow', () => {
  it('three @CrewBase crews, each fed the last one\'s result.raw: one flow, the crews in order', async () => {
    const { flow, crews, unmapped } = await importCrewAiProject(join(patterns, 'three_crews'));
    expect(unmapped).toEqual([]);
    expect(crews.map((c) => c.id)).toEqual(['collect_crew', 'write_crew', 'check_crew']);
    expect(flow!.methods.map((m) => [m.name, m.trigger, m.body.type === 'crew' ? [m.body.file, m.body.inputs] : m.body.type])).toEqual([
      ['collect_crew', { start: true }, ['collect_crew.crew.json', { beat: 'open source' }]],
      ['write_crew', { listen: 'collect_crew' }, ['write_crew.crew.json', { items: '{input}' }]],
      ['check_crew', { listen: 'write_crew' }, ['check_crew.crew.json', { letter: '{input}' }]],
    ]);

    server.setHandler((body) => ({ content: `Output of ${/You are ([^.\n]+)\./.exec(system(body))?.[1]}` }));
    const { documents, run } = await importAndRun('three_crews');
    expect(documents.map((d) => d.kind)).toEqual(['flow', 'crew', 'crew', 'crew']);
    expect(run.status).toBe('completed');
    const [collector, writer, checker] = [...new Set(roles())];
    expect(roles()).toEqual([collector, writer, checker]);
    // Each crew was given the output of the one before.
    expect(user(chats()[1]!.body)).toContain(`Output of ${collector}`);
    expect(user(chats()[2]!.body)).toContain(`Output of ${writer}`);
  });

  it('plain-script crews from functions: an f-string of the last result, an older result kept in state, a value Python computes as the flow\'s input', async () => {
    const { flow, unmapped } = await importCrewAiProject(join(patterns, 'chained_script_crews'));
    expect(flow!.methods.map((m) => [m.name, m.body.type === 'crew' ? m.body.inputs ?? {} : m.body.type === 'set_state' ? m.body.set : m.body.type])).toEqual([
      ['scout_crew', { city: '{state.city}' }],
      ['keep_scout_crew_output', { scout_crew_output: '{input}' }],
      ['planner_crew', { places: '{input}', days: '2' }],
      ['editor_crew', { plan: 'Draft plan:\n{input}', places: '{state.scout_crew_output}' }],
    ]);
    expect(unmapped).toEqual([
      {
        path: 'src/trip_notes/main.py:9',
        item: 'scout_crew input city',
        why: 'a value computed by Python the importer does not run; the flow takes it as its input "city" (crewdeck run … --input city=…)',
      },
    ]);

    server.setHandler((body) => {
      const role = /You are ([^.\n]+)\./.exec(system(body))?.[1];
      if (role === 'Destination Scout') return { content: `Places in ${/places in (\w+)/.exec(user(body))?.[1]}: the tram, the castle, the river` };
      if (role === 'Day Planner') return { content: 'Day 1: castle. Day 2: river.' };
      return { content: 'Edited.' };
    });
    const { run } = await importAndRun('chained_script_crews', ['--input', 'city=Porto']);
    expect(run.status).toBe('completed');
    expect(roles()).toEqual(['Destination Scout', 'Day Planner', 'Travel Editor']);
    expect(user(chats()[0]!.body)).toContain('List three places in Porto');
    expect(user(chats()[1]!.body)).toContain('Places in Porto: the tram, the castle, the river');
    const editor = user(chats()[2]!.body);
    expect(editor).toContain('Draft plan:\nDay 1: castle. Day 2: river.');
    expect(editor).toContain('Places in Porto: the tram, the castle, the river');
  });
});
