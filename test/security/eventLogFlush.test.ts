import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { isLiveOnly } from '../../shared/events';
import { workspaceDatabasePath } from '../../runtime/store/database';
import { BUILTIN_TOOL_IMPLEMENTATIONS, ToolRegistry } from '../../runtime/tools/registry';
import { defineTool } from '../../runtime/tools/tool';
import { crew, runCrew, scripted, tempWorkspace } from '../support/crewHarness';
import { assertGapFree, describeResult, finished, listRuns, runEvents, spawnCli, tempDir, type TempWorkspace } from '../cli/cliHarness';

/** The event types stored for the workspace's latest run, read through a separate read-only connection. */
function storedTypes(workspace: string): string[] {
  const file = workspaceDatabasePath(workspace);
  if (!existsSync(file)) return [];
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 1000');
    const run = db.prepare('SELECT id FROM runs ORDER BY started_at DESC LIMIT 1').get() as { id: string } | undefined;
    if (!run) return [];
    return (db.prepare('SELECT type FROM events WHERE run_id = ? ORDER BY seq').all(run.id) as { type: string }[]).map((r) => r.type);
  } catch {
    return []; // the schema may not be there yet
  } finally {
    db.close();
  }
}

const cleanups: (() => void)[] = [];
let ws: TempWorkspace | undefined;
afterEach(() => {
  cleanups.splice(0).forEach((c) => c());
  ws?.remove();
  ws = undefined;
});

describe('events already emitted are on disk before a tool or a script runs', () => {
  it('a tool that holds the event loop finds every earlier event of its run committed, tool.started included', async () => {
    const workspace = tempWorkspace('crewdeck-flush-');
    cleanups.push(workspace.remove);
    const seenByTool: string[][] = [];
    // Stands in for a tool that blocks the loop: it reads the database synchronously, from another connection, then spins.
    const blocking = defineTool({
      name: 'current_time',
      description: 'A tool that holds the event loop',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      cacheable: false,
      async execute() {
        seenByTool.push(storedTypes(workspace.dir));
        const until = Date.now() + 50;
        while (Date.now() < until) {
          // busy: no event-loop turn ends while this runs
        }
        return 'tick';
      },
    });
    const tools = new ToolRegistry();
    for (const tool of Object.values(BUILTIN_TOOL_IMPLEMENTATIONS)) if (tool.name !== 'current_time') tools.register(tool);
    tools.register(blocking);

    const doc = crew({
      agents: [
        {
          id: 'a',
          role: 'Clock reader',
          goal: 'Read the clock',
          tools: [{ tool: 'current_time' }],
          llm: scripted({ sequence: [{ toolCalls: [{ name: 'current_time', arguments: {} }] }, { toolCalls: [{ name: 'current_time', arguments: {} }] }, 'Final Answer: done'] }),
        },
      ],
      tasks: [{ id: 'read', description: 'Read the clock twice', expectedOutput: 'done', agentId: 'a' }],
    });
    const { result, events } = await runCrew(doc, { workspace, tools });
    expect(result.status).toBe('completed');
    expect(seenByTool).toHaveLength(2);
    // Everything emitted before each call was committed when the tool got control.
    const startedAt = events.map((e, i) => (e.type === 'tool.started' ? i : -1)).filter((i) => i >= 0);
    // Live-only events (stream deltas) are never stored.
    const persisted = events.filter((e) => !isLiveOnly(e)).map((e) => e.type);
    for (const [call, index] of startedAt.entries()) {
      const before = events.slice(0, index + 1).filter((e) => !isLiveOnly(e)).length;
      expect(seenByTool[call]).toEqual(persisted.slice(0, before));
      expect(seenByTool[call]!.at(-1)).toBe('tool.started');
    }
  });

  it('crewdeck run killed (SIGKILL) while a flow script holds the event loop keeps every event up to the script', async () => {
    ws = tempDir('crewdeck-flush-kill-');
    const file = ws.write('hang.flow.json', {
      kind: 'flow',
      version: 1,
      id: 'hang',
      name: 'Hangs in a script',
      methods: [
        { id: 'prepare', name: 'prepare', trigger: { start: true }, body: { type: 'set_state', set: { topic: 'tides' } } },
        { id: 'spin', name: 'spin', trigger: { listen: 'prepare' }, body: { type: 'script', code: 'for (;;) {}', timeoutMs: 60_000 } },
      ],
    });
    const child = spawnCli(['run', file, '--json'], { cwd: ws.dir });
    const exited = finished(child, 30_000);
    // Without the flush before the script, its flow.method.started is never committed: the loop never turns again.
    let types = storedTypes(ws.dir);
    const deadline = Date.now() + 20_000;
    while (!types.some((t, i) => t === 'flow.method.started' && types.indexOf('flow.method.started') < i) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      types = storedTypes(ws.dir);
    }
    child.kill('SIGKILL');
    const result = await exited;
    expect(result.signal, describeResult(result)).toBe('SIGKILL');

    const runs = await listRuns(ws.dir);
    expect(runs).toHaveLength(1);
    expect(runs[0].status).toBe('interrupted');
    const events = await runEvents(ws.dir, runs[0].id);
    assertGapFree(events);
    const methods = events.filter((e) => e.type === 'flow.method.started' || e.type === 'flow.method.completed').map((e) => `${e.type} ${(e as { methodId: string }).methodId}`);
    expect(methods).toEqual(['flow.method.started prepare', 'flow.method.completed prepare', 'flow.method.started spin']);
    expect(events.at(-1)).toMatchObject({ type: 'flow.method.started', methodId: 'spin' });
  }, 40_000);
});
