import { describe, expect, it } from 'vitest';
import { checkHostRequest, HOST_CHANNEL_NAMES } from '../../shared/host-api';
import { ALLOWED_CHANNELS, isAllowedChannel } from '../../electron/preload/allowedChannel';

describe('checkHostRequest (main validates every request from the window)', () => {
  it('refuses channels that are not in the contract', () => {
    for (const channel of ['fs.readFile', 'runs.start ', '__proto__', 'constructor', 'toString', '', 42, null, undefined, { channel: 'runs.list' }]) {
      const result = checkHostRequest(channel, {});
      expect(result.ok, String(channel)).toBe(false);
      expect(!result.ok && result.error.code).toBe('unknown_channel');
    }
  });

  it('passes a valid request on, parsed (defaults applied)', () => {
    const result = checkHostRequest('runs.list', {});
    expect(result).toEqual({ ok: true, channel: 'runs.list', request: { limit: 200, offset: 0 } });
    expect(checkHostRequest('documents.list', undefined)).toEqual({ ok: true, channel: 'documents.list', request: {} });
  });

  it('refuses requests that do not match the schema, with every problem', () => {
    const result = checkHostRequest('runs.list', { limit: 0, offset: -1 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('invalid_request');
    expect(result.error.problems?.map((p) => p.path).sort()).toEqual(['limit', 'offset']);
    expect(result.error.message).toMatch(/^invalid runs\.list request: /);
  });

  it('refuses paths that leave the workspace and unknown keys (strict schemas)', () => {
    for (const path of ['../secret.crew.json', '/etc/passwd.crew.json', 'a/../../b.crew.json', '.crewdeck/x.crew.json', 'C:/x.crew.json', 'notes.txt']) {
      const result = checkHostRequest('documents.read', { path });
      expect(result.ok, path).toBe(false);
    }
    const extra = checkHostRequest('documents.read', { path: 'a.crew.json', encoding: 'binary' });
    expect(extra.ok).toBe(false);
    expect(checkHostRequest('documents.read', { path: 'crews/a.crew.json' }).ok).toBe(true);
  });

  it('checks secrets requests before main stores anything', () => {
    expect(checkHostRequest('secrets.set', { name: 'OPENAI_API_KEY', value: 'sk-1' }).ok).toBe(true);
    expect(checkHostRequest('secrets.set', { name: 'BAD NAME', value: 'x' }).ok).toBe(false);
    expect(checkHostRequest('secrets.set', { name: 'OPENAI_API_KEY', value: '' }).ok).toBe(false);
    expect(checkHostRequest('secrets.delete', { name: 'PATH;rm' }).ok).toBe(false);
  });
});

describe('the preload allow-list', () => {
  it('is exactly the contract’s channels', () => {
    expect([...ALLOWED_CHANNELS].sort()).toEqual([...HOST_CHANNEL_NAMES].sort());
  });

  it('refuses everything else, including prototype names', () => {
    for (const channel of HOST_CHANNEL_NAMES) expect(isAllowedChannel(channel)).toBe(true);
    for (const channel of ['crewdeck:invoke', 'hasOwnProperty', '__proto__', 'documents', 'DOCUMENTS.LIST', '', 1, null, undefined]) {
      expect(isAllowedChannel(channel), String(channel)).toBe(false);
    }
  });
});
