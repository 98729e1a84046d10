import { classifyHostName, dottedRefusedNames, type RefusedAddressKind } from '../tools/addressPolicy';

/**
 * Why an `allowedHosts` entry (`name`, `name:port`, `[v6]:port`, `*.suffix`) or a URL's host names a
 * host that is not public by its name alone: a loopback, private, link-local, metadata… address or
 * name, or a wildcard that covers one. Undefined for a public address or any other name.
 */
export function localHostKind(entry: string): RefusedAddressKind | undefined {
  const host = entry.trim().toLowerCase();
  if (host.startsWith('*.')) {
    // A trailing dot names the same host (`hostListed` drops it on both sides), so `*.internal.` is `*.internal`.
    const suffix = host.slice(2).replace(/:\d+$/, '').replace(/\.+$/, '');
    // A suffix whose last label is numeric (`*.0.0.1`, `*.1`, `*.169.254`, `*.0x1`) or that holds an IPv6
    // piece can only match IP literals, some of them local: held as such (metadata when it covers it).
    if (suffix === '' || /(^|\.)(\d+|0x[0-9a-f]*)$/.test(suffix) || /[[\]:]/.test(suffix)) {
      return '169.254.169.254'.endsWith(`.${suffix}`) ? 'metadata' : 'loopback';
    }
    const covered = dottedRefusedNames().find((name) => name === suffix || name.endsWith(`.${suffix}`));
    return classifyHostName(`x.${suffix}`)?.refused ?? (covered ? classifyHostName(covered)?.refused : undefined);
  }
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  const bare = bracketed ? bracketed[1]! : host.split(':').length === 2 ? host.replace(/:\d*$/, '') : host;
  try {
    return classifyHostName(bare)?.refused;
  } catch {
    return undefined;
  }
}
