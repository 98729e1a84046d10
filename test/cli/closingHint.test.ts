import { mkdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { workspaceFlag } from '../../runtime/cli/session';
import { describeResult, runCli, tempExamples } from './cliHarness';

/** The command a run prints at its end works when pasted where the run was started. */
vi.setConfig({ testTimeout: 60_000 });

describe('the closing hint of crewdeck run', () => {
  it('run from another folder: the hint names --workspace, and pasting it there shows the run', async () => {
    const ws = tempExamples();
    try {
      const elsewhere = ws.path('elsewhere');
      mkdirSync(elsewhere);
      const run = await runCli(['run', ws.path('research-brief.crew.json'), '--workspace', ws.dir], { cwd: elsewhere });
      expect(run.code, describeResult(run)).toBe(0);
      const hint = /See it again: (crewdeck runs show \S+ --workspace \S+)/.exec(run.stdout)?.[1];
      expect(hint, run.stdout).toBe(`crewdeck runs show ${/run (run_\S+)/.exec(run.stdout)?.[1]} --workspace ..`);
      const shown = await runCli(hint!.split(' ').slice(1), { cwd: elsewhere });
      expect(shown.code, describeResult(shown)).toBe(0);
      expect(shown.stdout).toContain('Research brief');
    } finally {
      ws.remove();
    }
  });

  it('run in the workspace: no --workspace; a path with spaces is quoted; a far one is absolute', () => {
    expect(workspaceFlag('/w/project', '/w/project')).toBe('');
    expect(workspaceFlag('/w/project', '/w')).toBe(' --workspace project');
    expect(workspaceFlag('/w/my project', '/w')).toBe(" --workspace 'my project'");
    expect(workspaceFlag('/w/project', '/elsewhere/deep')).toBe(' --workspace /w/project');
  });
});
