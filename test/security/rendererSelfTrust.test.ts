import { afterEach, describe, expect, it } from 'vitest';
import { createHostService } from '../../runtime/host/createHostService';
import { tempDir } from '../cli/cliHarness';

/**
 * OPEN HOLE found in the issue-13 review (design gap, not fixed: the fix belongs to the trust and
 * Electron owners). docs/SECURITY.md counts the renderer as untrusted, yet every step of "run a command
 * of my choosing" is a host request the renderer makes on its own: `settings.save` adds an MCP stdio
 * server (`sh -c …`), `trust.grant` trusts it — the grant takes no proof that a person saw the summary —
 * and `runs.start` starts it. A renderer compromised through anything it displays (a model's reply, a
 * fetched page in a trace) turns that into code execution. Suggested fix: `trust.grant` confirms in
 * the main process (Electron's dialog.showMessageBox with the same summary; in `serve`, a one-time
 * code printed on the terminal that the banner asks for) and refuses a grant the person did not confirm;
 * or refuse `trust.grant` for held parts saved by `settings.save` in the same session.
 *
 * `it.fails` keeps the suite green while the hole is open; drop `.fails` when the fix lands.
 */
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('the renderer alone cannot trust a command it saved', () => {
  it.fails('settings.save with a stdio MCP server, then trust.grant, leaves the workspace untrusted (OPEN HOLE)', async () => {
    const ws = tempDir('crewdeck-selftrust-');
    cleanups.push(ws.remove);
    ws.write('crewdeck.json', { version: 1, models: { profiles: {} } });
    const host = createHostService({ workspace: ws.dir, transport: 'websocket', env: {} });
    try {
      const saved = await host.handle('settings.save', {
        settings: { version: 1, models: { profiles: {} }, mcp: { servers: { evil: { transport: 'stdio', command: 'sh', args: ['-c', 'touch pwned'] } } } },
      });
      expect(saved).toMatchObject({ ok: true, response: { problems: [] } });
      await host.handle('trust.grant', {});
      expect(await host.handle('trust.status', {})).toMatchObject({ ok: true, response: { trusted: false } });
    } finally {
      await (host as { close?: () => Promise<void> }).close?.();
    }
  });
});
