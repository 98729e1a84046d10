import { describe, expect, it } from 'vitest';
import { webhookPolicyFrom, webhookUrlProblem } from '../../runtime/team/webhookPolicy';

const none = { allowedHosts: [] };

describe('webhook URLs and the address policy (classifier on address strings; nothing is resolved or sent)', () => {
  it.each([
    ['http://127.0.0.1:9/hook', 'loopback'],
    ['http://[::1]:9/hook', 'loopback'],
    ['http://localhost/hook', 'loopback'],
    ['http://api.localhost/hook', 'loopback'],
    ['http://0x7f.1/hook', 'loopback'],
    ['http://2130706433/hook', 'loopback'],
    ['http://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['http://10.1.2.3/hook', 'private'],
    ['http://192.168.1.20:8080/hook', 'private'],
    ['http://[::ffff:192.168.0.1]/hook', 'private'],
    ['http://169.254.10.1/hook', 'link-local'],
    ['http://[fe80::1]/hook', 'link-local'],
    ['http://169.254.169.254/latest/meta-data', 'metadata'],
    ['http://metadata.google.internal/computeMetadata/v1', 'metadata'],
    ['http://[fd00:ec2::254]/latest', 'metadata'],
    ['http://[fd12::1]/hook', 'unique-local'],
    ['http://0.0.0.0:5432/', 'unspecified'],
  ])('%s is refused as %s, naming the flag that would allow it', (url, kind) => {
    const problem = webhookUrlProblem(url, none);
    expect(problem).toContain(`${kind} address`);
    expect(problem).toContain('--webhook-allow');
  });

  it('public hosts and names are left to delivery (where their resolved addresses are checked)', () => {
    expect(webhookUrlProblem('https://hooks.example.com/crewdeck', none)).toBeUndefined();
    expect(webhookUrlProblem('http://93.184.216.34/x', none)).toBeUndefined();
    expect(webhookUrlProblem('http://[2606:4700::1111]/x', none)).toBeUndefined();
  });

  it('a host the server allows passes whatever its address; others stay refused', () => {
    const policy = webhookPolicyFrom(['127.0.0.1'], { CREWDECK_WEBHOOK_ALLOWED_HOSTS: 'hooks.internal:8443, *.corp.example' });
    expect(policy.allowedHosts).toEqual(['hooks.internal:8443', '*.corp.example', '127.0.0.1']);
    expect(webhookUrlProblem('http://127.0.0.1:4000/hook', policy)).toBeUndefined();
    expect(webhookUrlProblem('https://hooks.internal:8443/x', policy)).toBeUndefined();
    expect(webhookUrlProblem('http://10.0.0.7/x', policy)).toContain('private address');
    expect(webhookUrlProblem('http://localhost:4000/hook', policy)).toContain('loopback address');
    expect(webhookUrlProblem('http://[::1]:4000/hook', policy)).toContain('loopback address');
  });

  it('refuses what is not an http(s) URL, and credentials in the URL', () => {
    expect(webhookUrlProblem('ftp://example.com/x', none)).toContain('http or https');
    expect(webhookUrlProblem('not a url', none)).toContain('is not a URL');
    expect(webhookUrlProblem('https://user:pw@example.com/x', none)).toContain('user name or password');
  });
});
