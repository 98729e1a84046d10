import { lookup as dnsLookup } from 'node:dns/promises';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { classifyAddress, classifyHostName, type AddressVerdict, type RefusedAddressKind } from './addressPolicy';

/**
 * HTTP for model- and document-controlled URLs (http_request, knowledge URLs). Every hop of a redirect
 * chain is checked before anything is sent to it:
 * - a host in `allowedHosts` (exact name, `host:port` or `*.example.com`) is allowed whatever its address,
 *   and with `allowedHosts` given, no other host is; with `listedNamesChecked`, only a listed host that
 *   names a refused address or name itself (`127.0.0.1:6379`, `localhost`: an exact entry, never a wildcard's
 *   match such as `*.0.0.1` → 127.0.0.1) is allowed whatever its address,
 *   a listed name like `a.example.com` must resolve to public addresses (an untrusted workspace's list);
 * - without `allowedHosts`, the host name and every address it resolves to must be public
 *   (`addressPolicy.ts`), and the connection goes to one of exactly those checked addresses — the name
 *   is not resolved again, so a DNS answer that changes in between (rebinding) cannot slip past;
 * - `trustedHosts` are allowed whatever their address but, unlike `allowedHosts`, do not exclude others.
 */

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a name resolves to (tests inject one that never touches DNS). */
export type ResolveAll = (hostname: string) => Promise<ResolvedAddress[]>;

export interface GuardedFetchOptions {
  method?: string;
  headers?: Headers;
  body?: string;
  signal?: AbortSignal;
  allowedHosts?: readonly unknown[];
  /**
   * A listed name that is not a refused name or address by itself is reached only at public addresses
   * (the list comes from a workspace the user has not trusted: its refused entries were held for trust
   * before the run opened, a plain name may still resolve to a private address).
   */
  listedNamesChecked?: boolean;
  trustedHosts?: readonly string[];
  /** Default 5. */
  maxRedirects?: number;
  /** How host names are resolved; default `dns.lookup` with every address. */
  resolve?: ResolveAll;
  /** Which resolved addresses are refused; default `classifyAddress` (tests swap it to reach loopback by name). */
  classify?: (address: string) => AddressVerdict;
}

/** A URL the network policy does not let a request reach; the message says which rule refused it. */
export class RequestRefused extends Error {
  override name = 'RequestRefused';
}

export const DEFAULT_MAX_REDIRECTS = 5;

const requireBuiltin = createRequire(import.meta.url);

const defaultResolve: ResolveAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Fetches `start`, following redirects by hand (each hop checked as above). 303, and 301/302 after a
 * POST, become GET without a body. Returns a WHATWG Response whose body streams from the socket.
 */
export async function guardedFetch(start: URL, options: GuardedFetchOptions = {}): Promise<Response> {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let url = start;
  let method = (options.method ?? 'GET').toUpperCase();
  let body = options.body;
  for (let hop = 0; ; hop++) {
    const addresses = await checkUrl(url, options);
    const response = await send(url, { method, headers: options.headers ?? new Headers(), body, signal: options.signal, addresses });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || !location) return response;
    await response.body?.cancel().catch(() => undefined);
    const next = new URL(location, url);
    if (maxRedirects === 0) throw new RequestRefused(`request to ${url.href} was redirected (HTTP ${response.status} to ${next.href}); redirects are not followed here`);
    if (hop >= maxRedirects) throw new RequestRefused(`request to ${start.href} was redirected more than ${maxRedirects} times`);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new RequestRefused(`request to ${url.href} was redirected to a ${next.protocol} URL; only http and https are allowed`);
    }
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
    url = next;
  }
}

/** Whether `url`'s host matches an `allowedHosts`-style list. */
export function hostListed(url: URL, list: readonly unknown[]): boolean {
  return listedEntries(url, list).length > 0;
}

/**
 * The entries of an `allowedHosts`-style list that match `url`'s host. A trailing dot names the same
 * host on either side (`localhost.` is `localhost`); an entry without a port matches every port, one
 * with a port only that port (the scheme's default when the URL has none: `localhost:80` matches
 * `http://localhost/`); `*.suffix` matches names ending in `.suffix`.
 */
export function listedEntries(url: URL, list: readonly unknown[]): string[] {
  const hostname = withoutTrailingDots(url.hostname.toLowerCase());
  const port = url.port || DEFAULT_PORTS[url.protocol] || '';
  const host = port ? `${hostname}:${port}` : hostname;
  return list.filter((entry): entry is string => {
    if (typeof entry !== 'string') return false;
    const pattern = entry.trim().toLowerCase();
    if (pattern.startsWith('*.')) {
      const suffix = withoutTrailingDots(pattern.slice(1));
      return suffix.length > 1 && hostname.endsWith(suffix);
    }
    const [name, entryPort] = splitPort(pattern);
    return withoutTrailingDots(name) === hostname && (entryPort === undefined || `${hostname}:${entryPort}` === host);
  });
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/** The default port of a URL scheme (`http:` 80, `https:` 443), or undefined. */
export function defaultPort(protocol: string): string | undefined {
  return DEFAULT_PORTS[protocol];
}

function withoutTrailingDots(name: string): string {
  return name.replace(/\.+$/, '');
}

/** `host`, `host:port`, `[v6]` or `[v6]:port` as name and port (undefined without one). */
function splitPort(entry: string): [string, string | undefined] {
  const bracketed = /^(\[[^\]]*\])(?::(\d*))?$/.exec(entry);
  if (bracketed) return [bracketed[1]!, bracketed[2] || undefined];
  const parts = entry.split(':');
  const [name, port] = parts;
  return name !== undefined && parts.length === 2 ? [name, port || undefined] : [entry, undefined];
}

/**
 * Refuses `url` when the policy does not allow it; otherwise the addresses to connect to
 * (undefined: let the system resolve the listed or trusted name as usual).
 */
async function checkUrl(url: URL, options: GuardedFetchOptions): Promise<ResolvedAddress[] | undefined> {
  if (options.allowedHosts) {
    const matched = listedEntries(url, options.allowedHosts);
    if (matched.length === 0) {
      const list = options.allowedHosts.filter((h) => typeof h === 'string').join(', ') || '(none)';
      throw new RequestRefused(`host "${url.host}" is not allowed for http_request; allowed hosts: ${list}`);
    }
    if (!options.listedNamesChecked) return undefined;
    // Only an exact entry that is itself a refused name or address (`127.0.0.1:6379`, `localhost`) was
    // held for trust as such; a wildcard that happens to match one (`*.0.0.1`) must still reach public addresses.
    const named = classifyHostName(url.hostname);
    if (named && matched.some((entry) => !entry.trim().startsWith('*.'))) return undefined;
    const rule = 'until the workspace is trusted, a listed name is reached only at public addresses';
    if (named) throw refusal(url, url.hostname, named.refused, rule);
    return publicAddresses(url, options, rule);
  }
  if (options.trustedHosts && hostListed(url, options.trustedHosts)) return undefined;
  const named = classifyHostName(url.hostname);
  if (named) throw refusal(url, url.hostname, named.refused);
  return publicAddresses(url, options);
}

/** The addresses `url`'s host resolves to, all public, or a refusal. */
async function publicAddresses(url: URL, options: GuardedFetchOptions, rule?: string): Promise<ResolvedAddress[]> {
  const bare = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare)) return [{ address: bare, family: isIP(bare) }];
  let addresses: ResolvedAddress[];
  try {
    addresses = await (options.resolve ?? defaultResolve)(url.hostname);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RequestRefused(`request to ${url.href} failed: could not resolve ${url.hostname}${code ? ` (${code})` : ''}`);
  }
  if (addresses.length === 0) throw new RequestRefused(`request to ${url.href} failed: ${url.hostname} has no address`);
  for (const { address } of addresses) {
    const verdict = (options.classify ?? classifyAddress)(address);
    if (verdict) throw refusal(url, `${url.hostname} (${address})`, verdict.refused, rule);
  }
  return addresses;
}

function refusal(url: URL, what: string, kind: RefusedAddressKind, rule = 'local, private and metadata addresses are reached only when listed in allowedHosts'): RequestRefused {
  const article = /^[aeiou]/.test(kind) ? 'an' : 'a';
  return new RequestRefused(`request to ${url.href} refused: ${what} is ${article} ${kind} address; ${rule}`);
}

interface Outgoing {
  method: string;
  headers: Headers;
  body?: string;
  signal?: AbortSignal;
  addresses?: ResolvedAddress[];
}

function send(url: URL, out: Outgoing): Promise<Response> {
  const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' };
  out.headers.forEach((value, key) => (headers[key] = value));
  if (out.body !== undefined) headers['content-length'] = String(Buffer.byteLength(out.body));
  const pinned = out.addresses;
  // Connect to the checked addresses only; the name stays the Host header and the TLS server name.
  const lookup: LookupFunction | undefined = pinned
    ? (_hostname, opts, callback) => {
        if ((opts as { all?: boolean }).all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, pinned);
        // checkedAddresses refuses a host with no address, so there is a first one.
        else callback(null, pinned[0]!.address, pinned[0]!.family);
      }
    : undefined;
  // node:http and node:https (with tls) are required on the first request, not when a run starts (cold start).
  const request = (url.protocol === 'https:' ? (requireBuiltin('node:https') as typeof import('node:https')) : (requireBuiltin('node:http') as typeof import('node:http'))).request;
  return new Promise<Response>((resolve, reject) => {
    const req = request(url, { method: out.method, headers, signal: out.signal, lookup }, (res) => {
      const status = res.statusCode ?? 0;
      const responseHeaders = new Headers();
      for (const [key, value] of Object.entries(res.headers)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(key, v);
      }
      const noBody = out.method === 'HEAD' || status === 204 || status === 205 || status === 304 || status < 200;
      if (noBody) res.resume();
      const stream = noBody ? null : (Readable.toWeb(decoded(res)) as ReadableStream<Uint8Array>);
      resolve(new Response(stream, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }));
    });
    // Like fetch: an aborted request rejects with the signal's reason.
    req.on('error', (error) => reject(out.signal?.aborted ? out.signal.reason : error));
    req.end(out.body);
  });
}

function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? createGunzip() : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : undefined;
  if (!decoder) return res;
  res.on('error', (error) => decoder.destroy(error));
  return res.pipe(decoder);
}
