import { describe, expect, it } from 'vitest';
import { currentTimeTool } from '../../runtime/tools/currentTime';
import type { ToolContext } from '../../runtime/tools/tool';

const ctx: ToolContext = { workspace: '/nonexistent', signal: new AbortController().signal, agentRole: 'Planner', config: {} };
const ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})) \(([^)]+)\)\n(.+)$/;

describe('current_time', () => {
  it('returns an ISO timestamp in UTC plus a readable form', async () => {
    const before = Date.now();
    const out = await currentTimeTool.execute({ timezone: 'UTC' }, ctx);
    const match = ISO.exec(out);
    expect(match, out).not.toBeNull();
    expect(match![1]!.endsWith('Z')).toBe(true);
    expect(match![2]).toBe('UTC');
    expect(Math.abs(Date.parse(match![1]!) - before)).toBeLessThan(5_000);
    expect(match![3]).toMatch(/\b20\d\d at \d{1,2}:\d{2}:\d{2} (AM|PM) UTC$/);
  });

  it('uses the offset of the requested zone', async () => {
    const out = await currentTimeTool.execute({ timezone: 'Asia/Kolkata' }, ctx);
    const match = ISO.exec(out)!;
    expect(match[1]!.endsWith('+05:30')).toBe(true);
    expect(Math.abs(Date.parse(match[1]!) - Date.now())).toBeLessThan(5_000);
    expect(match[3]).toContain('GMT+5:30');
  });

  it('defaults to the local zone', async () => {
    const local = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(await currentTimeTool.execute({}, ctx)).toContain(`(${local})`);
  });

  it('refuses an unknown zone', async () => {
    await expect(currentTimeTool.execute({ timezone: 'Mars/Olympus' }, ctx)).rejects.toThrow(
      'unknown time zone "Mars/Olympus"',
    );
  });

  it('is not cacheable', () => {
    expect(currentTimeTool.cacheable).toBe(false);
  });
});
