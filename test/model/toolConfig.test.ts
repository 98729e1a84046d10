import { describe, expect, it } from 'vitest';
import { crewWarnings } from '../../shared/model/crewWarnings';
import { parseCrewDocument, parseFlowDocument } from '../../shared/model/parse';
import { toolKeyWarnings } from '../../shared/model/toolWarnings';

const crewWith = (tools: unknown[]) => ({
  kind: 'crew',
  version: 1,
  id: 'c',
  name: 'C',
  agents: [{ id: 'a', role: 'A', goal: 'g', tools }],
  tasks: [{ id: 't', description: 'd', expectedOutput: 'e', agentId: 'a' }],
});

function problems(tools: unknown[]) {
  const parsed = parseCrewDocument(crewWith(tools));
  return parsed.ok ? [] : parsed.problems;
}

describe('tool settings in documents', () => {
  it('accepts each built-in tool with its settings', () => {
    expect(
      problems([
        { tool: 'web_search', config: { provider: 'brave', resultCount: 5, searchType: 'news', country: 'DE', locale: 'de', baseUrl: 'http://127.0.0.1:8080' } },
        { tool: 'scrape_website', config: { url: 'https://example.com/', selector: 'main article' } },
        { tool: 'website_search', config: { url: 'https://example.com/docs', limit: 3, minScore: 0.2 } },
        { tool: 'file_search', config: { path: 'docs/handbook.pdf', fileType: 'pdf' } },
        { tool: 'read_file', config: { path: 'jobs.md' }, name: 'Read the job description' },
        { tool: 'list_directory', config: { path: 'resumes', recursive: true } },
        { tool: 'write_file', config: { argumentStyle: 'crewai', directory: 'out' }, description: 'Write the report.' },
        { tool: 'http_request', config: { allowedHosts: ['api.github.com'], timeoutMs: 5000 } },
      ]),
    ).toEqual([]);
  });

  it('reports bad settings with the field path of each', () => {
    expect(
      problems([
        { tool: 'web_search', config: { provider: 'bing', resultCount: 0 } },
        { tool: 'web_search', config: { provider: 'exa', country: 'us', baseUrl: 'file:///etc/passwd' } },
        { tool: 'file_search', config: { path: 'sales.xlsx', fileType: 'csv', limit: 99 } },
        { tool: 'read_file', config: { file_path: 'x' } },
        { tool: 'scrape_website', config: { url: 'not a url' } },
      ]),
    ).toEqual([
      { path: 'agents.0.tools.0.config.provider', message: expect.stringContaining('serper') },
      { path: 'agents.0.tools.0.config.resultCount', message: expect.stringMatching(/>=\s*1/) },
      { path: 'agents.0.tools.1.config.baseUrl', message: expect.any(String) },
      { path: 'agents.0.tools.1.config.country', message: 'Exa has no country setting' },
      { path: 'agents.0.tools.2.config.limit', message: expect.stringMatching(/<=\s*20/) },
      { path: 'agents.0.tools.2.config.path', message: 'a csv file must end with .csv' },
      { path: 'agents.0.tools.3.config.file_path', message: 'read_file has no setting "file_path"' },
      { path: 'agents.0.tools.4.config.url', message: 'Invalid URL' },
      { path: 'agents.0.tools.4.config.url', message: 'must be an http:// or https:// URL' },
    ]);
  });

  it('checks tool settings inside a flow agent body too', () => {
    const parsed = parseFlowDocument({
      kind: 'flow',
      version: 1,
      id: 'f',
      name: 'F',
      state: { initial: {} },
      methods: [{ id: 'm', name: 'm', trigger: { start: true }, body: { type: 'agent', agent: { role: 'R', goal: 'g', tools: [{ tool: 'web_search', config: { searchType: 'images' } }] }, prompt: 'p' } }],
    });
    expect(parsed.ok ? [] : parsed.problems.map((p) => p.path)).toEqual(['methods.0.body.agent.tools.0.config.searchType']);
  });

  it('leaves the settings of MCP tools to their server', () => {
    expect(problems([{ tool: 'mcp:files/read', config: { anything: 1 } }])).toEqual([]);
  });
});

describe('tool warnings', () => {
  it('names the key variable a web search needs when it is not set', () => {
    const doc = crewWith([{ tool: 'web_search' }, { tool: 'web_search', config: { provider: 'tavily' } }, { tool: 'read_file' }]);
    const set = new Set(['SERPER_API_KEY']);
    expect(toolKeyWarnings(doc, (v) => set.has(v))).toEqual([
      { path: 'agents.0.tools.1.tool', message: expect.stringContaining('needs the key TAVILY_API_KEY, which is not set') },
    ]);
    expect(toolKeyWarnings(doc, () => true)).toEqual([]);
  });

  it('warns about two tools an agent would offer under one name', () => {
    const parsed = parseCrewDocument(crewWith([{ tool: 'read_file', config: { path: 'a.md' } }, { tool: 'read_file', config: { path: 'b.md' } }, { tool: 'read_file', name: 'Read b' }]));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    expect(crewWarnings(parsed.value)).toEqual([{ path: 'agents.0.tools.1', message: expect.stringContaining('the model sees this one as "read_file_2"') }]);
  });
});
