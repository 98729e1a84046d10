import type { RefusedAddressKind } from '../tools/addressPolicy';
import { localHostKind } from './hostKind';

export { localHostKind } from './hostKind';
import { hostListed } from '../tools/guardedFetch';
import { forEachRecord } from './documentRecords';
import { digestOf, type HeldPart } from './heldPart';
import type { UserModelServers } from './userModelServers';
import { toolListedNameParts, toolReachParts } from './toolParts';

/** The host a model or embedder reaches when its settings name no `baseUrl` of its own. */
export const DEFAULT_MODEL_HOST = 'api.openai.com';

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
 * name local, private or metadata hosts (unless `knowledge` is false). An offline re-run asks for none:
 * its models, tools and knowledge answer from the recording.
 */
export function documentReachParts(document: unknown, source: string, options: { tools: boolean; knowledge?: boolean; servers?: UserModelServers }): HeldPart[] {
  const parts: HeldPart[] = [];
  forEachRecord(document, (record, path) => {
    const where = (key: string) => `${source} ${[...path, key].join('.')}`;
    if (options.tools && Array.isArray(record.allowedHosts)) parts.push(...allowedHostsParts(record.allowedHosts, where('allowedHosts')));
    // A web search base URL of its own, a URL pinned in scrape_website / website_search on a local host.
    if (options.tools) parts.push(...toolReachParts(record, `${source} ${path.join('.')}`));
    if (options.knowledge !== false && record.type === 'url' && typeof record.url === 'string') {
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
    parts.push(...toolListedNameParts(record, `${source} ${path.join('.')}`));
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
