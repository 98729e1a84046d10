import { describe, expect, it } from 'vitest';
import { classifyAddress, classifyHostName } from '../../runtime/tools/addressPolicy';

/** The classifier only reads strings: nothing here resolves a name or opens a connection. */

const refused = (address: string) => classifyAddress(address)?.refused;

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.20', 'private'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['100.127.255.255', 'shared (CGNAT)'],
    ['169.254.0.5', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    // IPv4-mapped, -compatible and -translated forms are judged by the IPv4 address inside.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::127.0.0.1', 'loopback'],
    ['::ffff:0:192.168.0.1', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:7f00:1::', 'loopback'],
  ])('refuses %s as %s', (address, kind) => {
    expect(refused(address)).toBe(kind);
  });

  it.each(['1.1.1.1', '8.8.8.8', '93.184.216.34', '172.32.0.1', '172.15.255.255', '100.63.255.255', '100.128.0.1', '169.253.255.255', '2606:4700:4700::1111', '2001:db8::1', '::ffff:8.8.8.8', '2002:808:808::', 'fbff::1', 'fe7f::1'])(
    'allows the public address %s',
    (address) => {
      expect(classifyAddress(address)).toBeUndefined();
    },
  );

  it('throws on something that is not an address', () => {
    expect(() => classifyAddress('example.com')).toThrow('"example.com" is not an IP address');
    expect(() => classifyAddress('0177.0.0.1')).toThrow(/not an IP address/);
  });
});

describe('classifyHostName', () => {
  it('refuses metadata and local names, whatever they resolve to', () => {
    for (const name of ['metadata.google.internal', 'METADATA.google.internal.', 'metadata', 'metadata.goog', 'instance-data.ec2.internal']) {
      expect(classifyHostName(name), name).toEqual({ refused: 'metadata' });
    }
    for (const name of ['localhost', 'LocalHost', 'app.localhost']) expect(classifyHostName(name), name).toEqual({ refused: 'loopback' });
  });

  it('judges IP literals as addresses, including the forms the URL parser normalizes', () => {
    // Decimal, octal, hex and short IPv4 forms: WHATWG URL turns them into dotted quads first.
    for (const raw of ['http://2130706433/', 'http://0177.0.0.1/', 'http://0x7f.1/', 'http://127.1/', 'http://0x7f000001/']) {
      const hostname = new URL(raw).hostname;
      expect(hostname, raw).toBe('127.0.0.1');
      expect(classifyHostName(hostname), raw).toEqual({ refused: 'loopback' });
    }
    expect(classifyHostName(new URL('http://[::ffff:127.0.0.1]/').hostname)).toEqual({ refused: 'loopback' });
    expect(classifyHostName(new URL('http://[0:0::1]:8080/').hostname)).toEqual({ refused: 'loopback' });
    expect(classifyHostName(new URL('http://0251.0376.0251.0376/').hostname)).toEqual({ refused: 'metadata' });
  });

  it('leaves other names to their resolved addresses', () => {
    expect(classifyHostName('example.com')).toBeUndefined();
    expect(classifyHostName('metadata.example.com')).toBeUndefined();
    expect(classifyHostName('8.8.8.8')).toBeUndefined();
  });
});
