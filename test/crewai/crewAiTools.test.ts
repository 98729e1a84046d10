import { describe, expect, it } from 'vitest';
import { ToolRefSchema, type ToolRef } from '../../shared/model/tool';
import { crewAiFromToolRef, pythonToolServer, toolRefFromCrewAi, type CrewAiToolMapping, type PyArg } from '../../runtime/crewai/crewAiTools';

function mapped(mapping: CrewAiToolMapping): { ref: ToolRef; notes?: string[] } {
  if ('unmapped' in mapping) throw new Error(`unmapped: ${mapping.unmapped}`);
  // Every reference the table makes is a valid document reference.
  expect(ToolRefSchema.safeParse(mapping.ref).success).toBe(true);
  return mapping;
}

/** Each class with the keyword arguments crewai_tools defines, and the tool reference it becomes. */
const CASES: { className: string; kwargs: Record<string, PyArg>; tool: string; config: Record<string, unknown> }[] = [
  {
    className: 'SerperDevTool',
    kwargs: { n_results: 5, search_type: 'news', country: 'de', location: 'Berlin, Germany', locale: 'de', base_url: 'https://serper.proxy.example' },
    tool: 'web_search',
    config: { provider: 'serper', resultCount: 5, searchType: 'news', country: 'de', location: 'Berlin, Germany', locale: 'de', baseUrl: 'https://serper.proxy.example' },
  },
  { className: 'TavilySearchTool', kwargs: { max_results: 3, topic: 'news' }, tool: 'web_search', config: { provider: 'tavily', resultCount: 3, searchType: 'news' } },
  {
    className: 'BraveSearchTool',
    kwargs: { n_results: 7, country: 'FR', search_url: 'https://brave.proxy.example/res/v1/web/search' },
    tool: 'web_search',
    config: { provider: 'brave', resultCount: 7, country: 'FR', baseUrl: 'https://brave.proxy.example' },
  },
  { className: 'EXASearchTool', kwargs: { n_results: 4, base_url: 'https://exa.proxy.example' }, tool: 'web_search', config: { provider: 'exa', resultCount: 4, baseUrl: 'https://exa.proxy.example' } },
  { className: 'ScrapeWebsiteTool', kwargs: { website_url: 'https://example.com/jobs' }, tool: 'scrape_website', config: { url: 'https://example.com/jobs' } },
  {
    className: 'ScrapeElementFromWebsiteTool',
    kwargs: { website_url: 'https://example.com/', css_element: 'article .price' },
    tool: 'scrape_website',
    config: { variant: 'element', url: 'https://example.com/', selector: 'article .price' },
  },
  { className: 'WebsiteSearchTool', kwargs: { website: 'https://docs.example.com/', limit: 3 }, tool: 'website_search', config: { url: 'https://docs.example.com/', limit: 3 } },
  { className: 'FileReadTool', kwargs: { file_path: 'jobs.md' }, tool: 'read_file', config: { path: 'jobs.md' } },
  { className: 'DirectoryReadTool', kwargs: { directory: 'resumes' }, tool: 'list_directory', config: { recursive: true, path: 'resumes' } },
  { className: 'FileWriterTool', kwargs: { base_dir: 'out' }, tool: 'write_file', config: { argumentStyle: 'crewai', directory: 'out' } },
  { className: 'CSVSearchTool', kwargs: { csv: 'data/sales.csv' }, tool: 'file_search', config: { fileType: 'csv', path: 'data/sales.csv' } },
  { className: 'PDFSearchTool', kwargs: { pdf: 'docs/handbook.pdf', similarity_threshold: 0.3 }, tool: 'file_search', config: { fileType: 'pdf', path: 'docs/handbook.pdf', minScore: 0.3 } },
  { className: 'TXTSearchTool', kwargs: { txt: 'notes.txt' }, tool: 'file_search', config: { fileType: 'txt', path: 'notes.txt' } },
  { className: 'JSONSearchTool', kwargs: { json_path: 'catalog.json' }, tool: 'file_search', config: { fileType: 'json', path: 'catalog.json' } },
  { className: 'DOCXSearchTool', kwargs: { docx: 'contract.docx' }, tool: 'file_search', config: { fileType: 'docx', path: 'contract.docx' } },
  { className: 'MDXSearchTool', kwargs: { mdx: 'guide.mdx' }, tool: 'file_search', config: { fileType: 'mdx', path: 'guide.mdx' } },
  { className: 'XMLSearchTool', kwargs: { xml: 'feed.xml' }, tool: 'file_search', config: { fileType: 'xml', path: 'feed.xml' } },
  { className: 'DirectorySearchTool', kwargs: { directory: 'knowledge' }, tool: 'file_search', config: { fileType: 'directory', path: 'knowledge' } },
];

describe('toolRefFromCrewAi', () => {
  it.each(CASES)('maps $className with its keyword arguments', ({ className, kwargs, tool, config }) => {
    const { ref, notes } = mapped(toolRefFromCrewAi(className, kwargs));
    expect(ref.tool).toBe(tool);
    expect(ref.config).toEqual(config);
    expect(notes).toBeUndefined();
  });

  it.each(CASES)('exports $className back to the same class and arguments', ({ className, kwargs }) => {
    const { ref } = mapped(toolRefFromCrewAi(className, kwargs));
    expect(crewAiFromToolRef(ref)).toEqual({ className, kwargs });
  });

  it.each(CASES)('an exported $className imports to an equal reference', ({ className, kwargs }) => {
    const { ref } = mapped(toolRefFromCrewAi(className, kwargs));
    const exported = crewAiFromToolRef(ref)!;
    expect(mapped(toolRefFromCrewAi(exported.className, exported.kwargs)).ref).toEqual(ref);
  });

  it('maps each class without arguments (the model gives the path or URL)', () => {
    for (const { className, tool } of CASES) {
      const { ref } = mapped(toolRefFromCrewAi(className, {}));
      expect(ref.tool).toBe(tool);
      expect(crewAiFromToolRef(ref)?.className).toBe(className);
    }
  });

  it('reads the first positional argument as the class reads it', () => {
    expect(mapped(toolRefFromCrewAi('FileReadTool', {}, ['jobs.md'])).ref.config).toEqual({ path: 'jobs.md' });
    expect(mapped(toolRefFromCrewAi('PDFSearchTool', {}, ['a.pdf'])).ref.config).toEqual({ fileType: 'pdf', path: 'a.pdf' });
    expect(mapped(toolRefFromCrewAi('ScrapeWebsiteTool', {}, ['https://x.example/'])).ref.config).toEqual({ url: 'https://x.example/' });
  });

  it('keeps name=, description=, result_as_answer= and max_usage_count= on the reference', () => {
    const { ref } = mapped(toolRefFromCrewAi('SerperDevTool', { name: 'Search news', description: 'Find news.', result_as_answer: true, max_usage_count: 3 }));
    expect(ref).toMatchObject({ name: 'Search news', description: 'Find news.', resultAsAnswer: true, maxUsageCount: 3 });
    expect(crewAiFromToolRef(ref)?.kwargs).toEqual({ name: 'Search news', description: 'Find news.', result_as_answer: true, max_usage_count: 3 });
  });

  it('treats "" and None as not set, as crewai_tools does', () => {
    expect(mapped(toolRefFromCrewAi('SerperDevTool', { country: '', location: null })).ref.config).toEqual({ provider: 'serper' });
  });

  it('leaves out what it cannot read, saying which argument and why', () => {
    const { ref, notes } = mapped(
      toolRefFromCrewAi('SerperDevTool', { n_results: { $python: 'int(os.environ["N"])' }, search_type: 'images', save_file: true, api_key: 'k', colour: 'red' }),
    );
    expect(ref.config).toEqual({ provider: 'serper' });
    expect(notes).toEqual([
      'SerperDevTool: n_results is Python code (`int(os.environ["N"])`), not a whole number; the setting was left out',
      'SerperDevTool: search_type is "images", not one of search, news; the setting was left out',
      "SerperDevTool: save_file writes results to a file; Crewdeck keeps every result in the run's trace; it was left out",
      "SerperDevTool: api_key is a key written in code; Crewdeck reads SERPER_API_KEY from the environment (or the app's API keys); it was left out",
      'SerperDevTool: colour has no Crewdeck setting; it was left out',
    ]);
  });

  it('notes a RAG tool whose embedder config is left to the workspace', () => {
    const { notes } = mapped(toolRefFromCrewAi('CSVSearchTool', { csv: 'a.csv', config: { embedder: { provider: 'openai' } } }));
    expect(notes?.[0]).toMatch(/^CSVSearchTool: config configures CrewAI's own embedder/);
  });

  it('names a Brave search_url that is not a Brave search endpoint', () => {
    const { ref, notes } = mapped(toolRefFromCrewAi('BraveSearchTool', { search_url: 'https://brave.example/other' }));
    expect(ref.config).toEqual({ provider: 'brave' });
    expect(notes).toEqual(['BraveSearchTool: search_url is "https://brave.example/other", which does not end with /res/v1/web/search; the setting was left out']);
  });

  it('maps Tavily topics and the ExaSearchTool spelling', () => {
    expect(mapped(toolRefFromCrewAi('TavilySearchTool', { topic: 'general' })).ref.config).toEqual({ provider: 'tavily', searchType: 'search' });
    expect(mapped(toolRefFromCrewAi('ExaSearchTool', {})).ref.config).toEqual({ provider: 'exa' });
  });

  it('accepts the snake-case names of YAML tool lists', () => {
    expect(mapped(toolRefFromCrewAi('serper_dev_tool', {})).ref.tool).toBe('web_search');
    expect(mapped(toolRefFromCrewAi('pdf_search_tool', {})).ref.config).toEqual({ fileType: 'pdf' });
  });

  it('reports a class with no equivalent with its reason', () => {
    const result = toolRefFromCrewAi('CodeInterpreterTool', { unsafe_mode: true });
    expect(result).toEqual({ unmapped: expect.stringContaining('CodeInterpreterTool has no Crewdeck built-in equivalent') });
  });
});

describe('crewAiFromToolRef', () => {
  it('writes each provider as its own class', () => {
    const ref = (config: Record<string, unknown>): ToolRef => ({ tool: 'web_search', config, resultAsAnswer: false, requiresApproval: false });
    expect(crewAiFromToolRef(ref({}))?.className).toBe('SerperDevTool');
    expect(crewAiFromToolRef(ref({ provider: 'tavily', resultCount: 2 }))).toEqual({ className: 'TavilySearchTool', kwargs: { max_results: 2 } });
    expect(crewAiFromToolRef(ref({ provider: 'brave', baseUrl: 'http://127.0.0.1:9/' }))).toEqual({ className: 'BraveSearchTool', kwargs: { search_url: 'http://127.0.0.1:9/res/v1/web/search' } });
    expect(crewAiFromToolRef(ref({ provider: 'exa' }))?.className).toBe('EXASearchTool');
  });

  it('infers the RAG class of a file search from its pinned path', () => {
    expect(crewAiFromToolRef({ tool: 'file_search', config: { path: 'x/report.PDF' }, resultAsAnswer: false, requiresApproval: false })).toEqual({ className: 'PDFSearchTool', kwargs: { pdf: 'x/report.PDF' } });
    expect(crewAiFromToolRef({ tool: 'file_search', config: {}, resultAsAnswer: false, requiresApproval: false })).toBeUndefined();
  });

  it('has no class for tools CrewAI lacks', () => {
    for (const tool of ['calculator', 'current_time', 'http_request', 'mcp:x/y']) expect(crewAiFromToolRef({ tool, resultAsAnswer: false, requiresApproval: false })).toBeUndefined();
  });
});

describe('pythonToolServer', () => {
  it('names the server after the project folder and lists its modules', () => {
    expect(pythonToolServer('/home/me/Job Posting_Crew/', ['job_posting.tools.custom_tool'], ['src'])).toEqual({
      name: 'job-posting-crew-tools',
      entry: { transport: 'python', project: '/home/me/Job Posting_Crew/', path: ['src'], modules: ['job_posting.tools.custom_tool'] },
    });
    expect(pythonToolServer('C:\\projects\\Écoles', [], []).name).toBe('coles-tools');
    expect(pythonToolServer('/', [], []).name).toBe('project-tools');
  });
});
