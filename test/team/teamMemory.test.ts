import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { memoryLocationUnder } from '../../runtime/memory/memoryLocation';
import type { TeamClient } from '../../runtime/team/teamClient';
import type { TeamRunView } from '../../runtime/team/teamRuns';
import { startWorker } from '../../runtime/team/teamWorker';
import { agentPrompts, ofType } from '../support/crewHarness';
import { sharedServices } from '../support/teamServices';
import { publish, startInProcessTeam, waitFor, type InProcessTeam } from './teamHarness';

const EXTRACT = 'long-term memory of an AI agent crew';
const FACT = 'The Orion launch is on March 5 2026 in Berlin';

/** A crew that remembers: its scripted model answers the task and, the first time, the memory extraction. */
function rememberingCrew() {
  return {
    kind: 'crew',
    version: 1,
    id: 'launch',
    name: 'Launch',
    process: 'sequential',
    memory: { enabled: true },
    inputs: [{ name: 'remember', description: 'Whether there is something to keep', default: 'yes' }],
    agents: [
      {
        id: 'planner',
        role: 'Planner',
        goal: 'Plan the launch',
        backstory: 'Careful.',
        llm: {
          provider: 'scripted',
          model: 'plan',
          script: {
            rules: [
              { when: { system: EXTRACT, any: 'Keep: yes' }, reply: JSON.stringify({ memories: [{ content: FACT, categories: ['project'], importance: 0.7 }] }) },
              { when: { system: EXTRACT }, reply: JSON.stringify({ memories: [] }) },
              { when: {}, reply: 'Launch plan written.' },
            ],
          },
        },
      },
    ],
    tasks: [{ id: 'plan', description: 'Plan the Orion product launch. Keep: {remember}', expectedOutput: 'A launch plan', agentId: 'planner' }],
  };
}

let team: InProcessTeam;
let client: TeamClient;
let memoryRoot: string;
const otherDataDir = mkdtempSync(join(tmpdir(), 'crewdeck-worker-b-'));

beforeAll(async () => {
  memoryRoot = mkdtempSync(join(tmpdir(), 'crewdeck-team-memory-'));
  // The shared location given as a file:// URL, as a worker's --memory may be.
  team = await startInProcessTeam({ workers: 1, concurrency: 2, memoryLocation: () => pathToFileURL(memoryRoot).href });
  client = await team.client('deploy');
}, 60_000);

afterAll(async () => {
  await team?.stop();
  await (await sharedServices()).stop();
  rmSync(memoryRoot, { recursive: true, force: true });
  rmSync(otherDataDir, { recursive: true, force: true });
}, 60_000);

const runView = (id: string) => client.request<TeamRunView>('GET', `/v1/runs/${id}`);
const ended = (r: TeamRunView) => ['completed', 'failed', 'cancelled'].includes(r.status);
const eventsOf = async (runId: string) => (await client.request<{ events: RuntimeEvent[] }>('GET', `/v1/runs/${runId}/events`)).events;

async function runToEnd(inputs: Record<string, string>): Promise<{ view: TeamRunView; events: RuntimeEvent[] }> {
  const { runId } = await client.request<{ runId: string }>('POST', '/v1/deployments/launch/runs', { inputs });
  const view = await waitFor(() => runView(runId), ended, `run ${runId} to end`);
  return { view, events: await eventsOf(runId) };
}

describe('memory in team mode', () => {
  it('what one worker remembers, another worker recalls: the deployment has one store in the shared location', async () => {
    await publish(client, rememberingCrew());
    const first = await runToEnd({ remember: 'yes' });
    expect(first.view.status).toBe('completed');
    expect(ofType(first.events, 'memory.write.committed')[0]).toMatchObject({ taskId: 'plan', inserted: 1 });
    expect(existsSync(join(memoryRoot, 'launch'))).toBe(true);

    // The first worker leaves; a worker on another data folder (nothing shared but the memory location) joins.
    const env = team.env;
    const second = await startWorker({ databaseUrl: env.databaseUrl, redisUrl: env.redisUrl, queuePrefix: env.queuePrefix, concurrency: 2, leaseMs: 5_000, dataDir: otherDataDir, memoryDir: pathToFileURL(memoryRoot).href, log: () => undefined });
    await team.workers[0]!.stop();
    team.workers[0] = second;

    const next = await runToEnd({ remember: 'no' });
    expect(next.view.status).toBe('completed');
    const recall = ofType(next.events, 'memory.recall')[0];
    expect(recall?.records.map((r) => r.content)).toContain(FACT);
    expect(agentPrompts(next.events, 'Planner')[0]).toContain(FACT);
  }, 120_000);
});

describe('memory locations', () => {
  it('a folder or file:// URL joins as a path; an object-store URI joins with a slash', () => {
    expect(memoryLocationUnder('/mnt/shared/memory', 'launch')).toBe(join('/mnt/shared/memory', 'launch'));
    expect(memoryLocationUnder(pathToFileURL('/mnt/shared/memory').href, 'launch')).toBe(join('/mnt/shared/memory', 'launch'));
    expect(memoryLocationUnder('s3://team-bucket/crewdeck/', 'launch')).toBe('s3://team-bucket/crewdeck/launch');
    expect(memoryLocationUnder('gs://b/p', 'a b')).toBe('gs://b/p/a%20b');
  });
});
