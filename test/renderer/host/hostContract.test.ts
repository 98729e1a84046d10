import { describe, expect, it } from 'vitest';
import { FakeHost } from '../run/fakeHost';
import { contractViolations, HostContractViolation } from './hostContract';

describe('renderer test fakes keep the host contract', () => {
  it('refuses a request the host would refuse, and a response outside the channel schema', async () => {
    const fake = new FakeHost({ 'runs.list': () => ({ runs: [{ id: 'r1' }] }) as never, 'documents.read': ({ path }) => ({ path, document: {}, text: '{}', problems: [], modifiedAt: 1 }) });
    await expect(fake.invoke('documents.read', { path: '../outside.crew.json' })).rejects.toBeInstanceOf(HostContractViolation);
    await expect(fake.invoke('runs.list', {} as never)).rejects.toThrow(/runs\.list with a response outside the contract: runs\.0\./);
    await expect(fake.invoke('documents.read', { path: 'ok.crew.json' })).resolves.toMatchObject({ path: 'ok.crew.json' });
    // Recorded too, so a renderer that swallows the error still fails its test (hostContractGuard.ts).
    expect(contractViolations.splice(0)).toHaveLength(2);
  });
});
