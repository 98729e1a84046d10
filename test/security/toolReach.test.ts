import { describe, expect, it } from 'vitest';
import { documentListedNameParts, documentReachParts } from '../../runtime/trust/networkParts';

const doc = (tools: unknown[]) => ({ kind: 'crew', agents: [{ id: 'a', tools }] });
const reach = (tools: unknown[], online = true) => documentReachParts(doc(tools), 'c.crew.json', { tools: online }).map((p) => [p.kind, p.where, p.summary]);

describe('what tool settings make a run reach, held by workspace trust', () => {
  it("a web search base URL is held unless it is the provider's own API host", () => {
    expect(reach([{ tool: 'web_search' }, { tool: 'web_search', config: { provider: 'brave', baseUrl: 'https://api.search.brave.com' } }])).toEqual([]);
    expect(reach([{ tool: 'web_search', config: { provider: 'exa', baseUrl: 'https://search-proxy.corp.example/exa' } }])).toEqual([
      ['secret', 'c.crew.json agents.0.tools.0.config.baseUrl', "web_search sends $EXA_API_KEY and its queries to search-proxy.corp.example, not Exa's own API host"],
    ]);
    expect(reach([{ tool: 'web_search', config: { baseUrl: 'http://127.0.0.1:8080' } }])).toEqual([
      ['secret', 'c.crew.json agents.0.tools.0.config.baseUrl', "web_search sends $SERPER_API_KEY and its queries to 127.0.0.1:8080, not Serper (Google results)'s own API host"],
    ]);
  });

  it('a URL pinned in scrape_website or website_search on a local, private or metadata host is held', () => {
    expect(reach([{ tool: 'scrape_website', config: { url: 'http://169.254.169.254/latest/meta-data/' } }, { tool: 'website_search', config: { url: 'http://10.0.0.5/wiki' } }])).toEqual([
      ['network', 'c.crew.json agents.0.tools.0.config.url', 'lets scrape_website fetch http://169.254.169.254/latest/meta-data/ (a metadata address)'],
      ['network', 'c.crew.json agents.0.tools.1.config.url', 'lets website_search fetch http://10.0.0.5/wiki (a private address)'],
    ]);
    expect(reach([{ tool: 'scrape_website', config: { url: 'https://example.com/' } }])).toEqual([]);
  });

  it('a pinned plain name is recorded by a grant (reached at any address only once trusted)', () => {
    expect(documentListedNameParts(doc([{ tool: 'website_search', config: { url: 'https://wiki.corp.example/page' } }]), 'c.crew.json').map((p) => p.summary)).toEqual([
      'lets website_search fetch https://wiki.corp.example/page at any address',
    ]);
  });

  it('an offline re-run asks for none of them: the tools answer from the recording', () => {
    expect(reach([{ tool: 'web_search', config: { baseUrl: 'http://127.0.0.1:8080' } }, { tool: 'scrape_website', config: { url: 'http://127.0.0.1/' } }], false)).toEqual([]);
  });
});
