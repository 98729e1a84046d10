import { classifyHostName, dottedRefusedNames, type RefusedAddressKind } from '../tools/addressPolicy';
import { hostListed } from '../tools/guardedFetch';
import { forEachRecord } from './documentRecords';
import { digestOf, type HeldPart } from './heldPart';
import type { UserModelServers } from './userModelServers';

/** The host a model or embedder reaches when its settings name no `baseUrl` of its own. */
export const DEFAULT_MODEL_HOST = 'api.openai.com';

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
  const bare = bracketed ? bracketed[1] : host.split(':').length === 2 ? host.replace(/:\d*$/, '') : host;
  try {
    return classifyHostName(bare)?.refused;
  } catch {
    return undefined;
  }
}

function described(kind: RefusedAddressKind): string {
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} address`;
}

/** One part per `allowedHosts` entry that names a local, private or metadata host (`where` is the list's path). */
export function allowedHostsParts(list: readonly unknown[], where: string): HeldPart[] {
  const parts: HeldPart[] = [];
  list.forEach((entry, i) => {
    if (typeof entry !== 'string') return;
    const kind = localHostKind(entry);
    if (!kind) return;
    parts.push({
      kind: 'network',
      where: `${where}.${i}`,
      summary: `lets http_request reach ${entry} (${described(kind)})`,
      digest: digestOf({ network: 'allowedHosts', host: entry.trim().toLowerCase() }),
    });
  });
  return parts;
}

/** A knowledge URL on a local, private or metadata host, or undefined. */
export function knowledgeUrlPart(url: string, where: string): HeldPart | undefined {
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    return undefined;
  }
  const kind = localHostKind(host);
  if (!kind) return undefined;
  return { kind: 'network', where, summary: `fetches ${url} (${described(kind)}) as knowledge`, digest: digestOf({ network: 'knowledge', url }) };
}

/**
 * A model or embedder that sends prompts (or texts to embed) to a `baseUrl` of its own with no key: held
 * unless the host is the provider's default or one of the user's own model servers. (With `apiKeyEnv`
 * the key part, `keyHeldPart`, already holds the pair.)
 */
export function modelHostHeldPart(model: { apiKeyEnv?: string; baseUrl?: string }, where: string, servers: UserModelServers): HeldPart | undefined {
  if (model.baseUrl === undefined || model.apiKeyEnv !== undefined) return undefined;
  let url: URL;
  try {
    url = new URL(model.baseUrl);
  } catch {
    return undefined;
  }
  if (url.hostname.toLowerCase() === DEFAULT_MODEL_HOST || hostListed(url, servers.hosts)) return undefined;
  const unread = servers.problem ? ` (your model servers do not count: ${servers.problem})` : '';
  return { kind: 'network', where, summary: `sends prompts to ${url.host}${unread}`, digest: digestOf({ network: 'model', baseUrl: model.baseUrl }) };
}

/**
 * What a document itself lets the network reach, for the check before a run opens: inline models with a
 * `baseUrl` of their own (`servers` given), `allowedHosts` entries (`tools`), and knowledge URLs that
 * name local, private or metadata hosts. An offline re-run asks for the knowledge URLs only: its models
 * and http_request answer from the recording.
 */
export function documentReachParts(document: unknown, source: string, options: { tools: boolean; servers?: UserModelServers }): HeldPart[] {
  const parts: HeldPart[] = [];
  forEachRecord(document, (record, path) => {
    const where = (key: string) => `${source} ${[...path, key].join('.')}`;
    if (options.tools && Array.isArray(record.allowedHosts)) parts.push(...allowedHostsParts(record.allowedHosts, where('allowedHosts')));
    if (record.type === 'url' && typeof record.url === 'string') {
      const part = knowledgeUrlPart(record.url, where('url'));
      if (part) parts.push(part);
    }
    if (options.servers && typeof record.baseUrl === 'string' && typeof record.provider === 'string' && record.provider !== 'scripted') {
      const part = modelHostHeldPart({ baseUrl: record.baseUrl, apiKeyEnv: typeof record.apiKeyEnv === 'string' ? record.apiKeyEnv : undefined }, where('baseUrl'), options.servers);
      if (part) parts.push(part);
    }
  });
  return parts;
}

/**
 * What a trust grant also records, though a run does not wait for it: each plain name a document lists
 * in `allowedHosts` (`wiki.corp.example`) or fetches as knowledge. Until the workspace is trusted such a
 * name is reached at public addresses only; once every one of these is trusted too (`plainNamesTrusted`),
 * it may resolve to a private one. A name added after the grant is reached at public addresses again
 * until the workspace is trusted again.
 */
export function documentListedNameParts(document: unknown, source: string): HeldPart[] {
  const parts: HeldPart[] = [];
  forEachRecord(document, (record, path) => {
    const where = (key: string) => `${source} ${[...path, key].join('.')}`;
    if (Array.isArray(record.allowedHosts)) {
      record.allowedHosts.forEach((entry, i) => {
        if (typeof entry !== 'string' || localHostKind(entry)) return;
        const host = entry.trim().toLowerCase();
        parts.push({ kind: 'network', where: `${where('allowedHosts')}.${i}`, summary: `lets http_request reach ${entry} at any address`, digest: digestOf({ network: 'allowedName', host }) });
      });
    }
    if (record.type === 'url' && typeof record.url === 'string') {
      let host: string | undefined;
      try {
        host = new URL(record.url).host.toLowerCase();
      } catch {
        host = undefined;
      }
      if (host && !localHostKind(host)) parts.push({ kind: 'network', where: where('url'), summary: `fetches ${record.url} at any address`, digest: digestOf({ network: 'knowledgeName', host }) });
    }
  });
  return parts;
}
