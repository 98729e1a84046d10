import { afterEach, describe, expect, it } from 'vitest';
import { describeResult, runCli, tempDir, type TempWorkspace } from './cliHarness';

/** `crewdeck run --pause-for-humans`: a task review pauses the run; `resume` answers it later. */
const cleanups: TempWorkspace[] = [];
afterEach(() => cleanups.splice(0).forEach((w) => w.remove()));

const writer = { provider: 'scripted', model: 'writer', script: { rules: [{ when: { last: '/shorter/' }, reply: 'Tides: moon.' }], default: 'A long draft about tides.' } };
const reviewed = {
  kind: 'crew',
  version: 1,
  id: 'reviewed',
  name: 'Reviewed',
  agents: [{ id: 'w', role: 'Writer', goal: 'g', backstory: 'b', llm: writer }],
  tasks: [{ id: 'write', description: 'Write it up', expectedOutput: 'a text', agentId: 'w', humanInput: true }],
};

describe('crewdeck run --pause-for-humans', () => {
  it('pauses at the review; resume --feedback goes on, --approve completes, a decision for a review is refused', async () => {
    const ws = tempDir();
    cleanups.push(ws);
    const file = ws.write('reviewed.crew.json', reviewed);
    const run = await runCli(['run', file, '--pause-for-humans', '--json']);
    expect(run.code, describeResult(run)).toBe(0);
    const paused = JSON.parse(run.stdout) as { runId: string; status: string; pending: Record<string, unknown> };
    expect(paused).toMatchObject({ status: 'paused', pending: { kind: 'task_review', taskId: 'write', agentRole: 'Writer', output: 'A long draft about tides.' } });
    expect(paused.pending).not.toHaveProperty('conversation');

    const text = await runCli(['run', file, '--pause-for-humans']);
    expect(text.stdout).toContain("Paused: Writer's answer to task write waits for your review");
    expect(text.stdout).toMatch(/Answer with: crewdeck resume \S+ --workspace \S+ --feedback "…" \(or --approve to accept it\)/);

    const wrong = await runCli(['resume', paused.runId, '--deny', '--workspace', ws.dir]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("is a review of Writer's answer");

    const revised = await runCli(['resume', paused.runId, '--feedback', 'Make it shorter', '--pause-for-humans', '--json', '--workspace', ws.dir]);
    expect(JSON.parse(revised.stdout)).toMatchObject({ status: 'paused', pending: { kind: 'task_review', output: 'Tides: moon.' } });
    const done = await runCli(['resume', paused.runId, '--approve', '--json', '--workspace', ws.dir]);
    expect(done.code, describeResult(done)).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ status: 'completed', output: 'Tides: moon.', tasks: [{ taskId: 'write', raw: 'Tides: moon.' }] });
    // A second resume of the finished crew is refused as a crew's (issue 26: it spoke of flows).
    const again = await runCli(['resume', paused.runId, '--approve', '--workspace', ws.dir]);
    expect(again.code, describeResult(again)).toBe(2);
    expect(again.stderr).toContain('is a crew run that is completed; only crews paused (at their budget, or for a person) or interrupted can be resumed');
    expect(again.stderr).not.toMatch(/flow/i);
  }, 60_000);
});
