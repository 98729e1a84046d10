import { SEARCH_PROVIDER_INFO, SEARCH_PROVIDERS, type SearchProvider } from '../../shared/model/toolConfig';
import { digestOf, type HeldPart } from './heldPart';
import { localHostKind } from './hostKind';

/** Built-in tools whose settings may pin a URL they fetch. */
const URL_TOOLS = new Set(['scrape_website', 'website_search']);

function configOf(record: Record<string, unknown>): Record<string, unknown> {
  return record.config !== null && typeof record.config === 'object' ? (record.config as Record<string, unknown>) : {};
}

function hostOfUrl(url: string): string | undefined {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * What a tool reference itself makes the run reach, held until the workspace is trusted (as a model's own
 * baseUrl is): a web search `baseUrl` that is not the provider's own API host (the key and the queries go
 * there), and a URL pinned in scrape_website / website_search on a loopback, private, link-local or
 * metadata host. `where`: the reference's place (`agents.0.tools.1`). URLs a model chooses are not here:
 * they keep the address policy of model-chosen URLs at call time.
 */
export function toolReachParts(record: Record<string, unknown>, where: string): HeldPart[] {
  if (typeof record.tool !== 'string') return [];
  const config = configOf(record);
  if (record.tool === 'web_search' && typeof config.baseUrl === 'string') {
    const provider: SearchProvider = (SEARCH_PROVIDERS as readonly unknown[]).includes(config.provider) ? (config.provider as SearchProvider) : 'serper';
    const info = SEARCH_PROVIDER_INFO[provider];
    const host = hostOfUrl(config.baseUrl);
    if (host === undefined || host === new URL(info.baseUrl).host) return [];
    return [
      {
        kind: 'secret',
        where: `${where}.config.baseUrl`,
        summary: `web_search sends $${info.keyVariable} and its queries to ${host}, not ${info.label}'s own API host`,
        digest: digestOf({ toolBaseUrl: provider, baseUrl: config.baseUrl }),
      },
    ];
  }
  if (URL_TOOLS.has(record.tool) && typeof config.url === 'string') {
    const host = hostOfUrl(config.url);
    const kind = host === undefined ? undefined : localHostKind(host);
    if (!kind) return [];
    return [
      {
        kind: 'network',
        where: `${where}.config.url`,
        summary: `lets ${record.tool} fetch ${config.url} (${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} address)`,
        digest: digestOf({ network: 'toolUrl', url: config.url }),
      },
    ];
  }
  return [];
}

/** A URL pinned in a tool's settings on a plain name (`wiki.corp.example`): recorded by a trust grant, reached at any address once trusted. */
export function toolListedNameParts(record: Record<string, unknown>, where: string): HeldPart[] {
  if (typeof record.tool !== 'string' || !URL_TOOLS.has(record.tool)) return [];
  const url = configOf(record).url;
  const host = typeof url === 'string' ? hostOfUrl(url) : undefined;
  if (host === undefined || localHostKind(host)) return [];
  return [{ kind: 'network', where: `${where}.config.url`, summary: `lets ${record.tool} fetch ${String(url)} at any address`, digest: digestOf({ network: 'toolUrlName', host }) }];
}
