import { z } from 'zod';
import { HttpUrlSchema } from './httpUrl';

/**
 * The settings (`ToolRef.config`) each built-in tool takes, one schema per tool. A setting that pins a
 * path or URL takes that argument away from the model (the tool then has no `path` / `url` argument).
 * `validate` reports a bad setting with its field path (`agents.0.tools.1.config.resultCount`).
 */

/** Web search providers and what each needs: the usual key variable and the provider's own API host. */
export const SEARCH_PROVIDERS = ['serper', 'tavily', 'brave', 'exa'] as const;
export type SearchProvider = (typeof SEARCH_PROVIDERS)[number];

export interface SearchProviderInfo {
  label: string;
  /** The environment variable (or keychain entry in the app) the key is read from. */
  keyVariable: string;
  /** The provider's own API root; `baseUrl` in the settings replaces it (a proxy, a test server). */
  baseUrl: string;
  /** Which of the optional settings the provider's API has. */
  has: { country: boolean; location: boolean; locale: boolean; news: boolean };
}

export const SEARCH_PROVIDER_INFO: Readonly<Record<SearchProvider, SearchProviderInfo>> = {
  serper: { label: 'Serper (Google results)', keyVariable: 'SERPER_API_KEY', baseUrl: 'https://google.serper.dev', has: { country: true, location: true, locale: true, news: true } },
  tavily: { label: 'Tavily', keyVariable: 'TAVILY_API_KEY', baseUrl: 'https://api.tavily.com', has: { country: true, location: false, locale: false, news: true } },
  brave: { label: 'Brave Search', keyVariable: 'BRAVE_API_KEY', baseUrl: 'https://api.search.brave.com', has: { country: true, location: false, locale: true, news: true } },
  exa: { label: 'Exa', keyVariable: 'EXA_API_KEY', baseUrl: 'https://api.exa.ai', has: { country: false, location: false, locale: false, news: true } },
};

/** Every key variable a built-in tool may read (the app's key list offers them). */
export const TOOL_KEY_VARIABLES: readonly string[] = SEARCH_PROVIDERS.map((p) => SEARCH_PROVIDER_INFO[p].keyVariable);

export const DEFAULT_SEARCH_RESULTS = 10;

/** What `file_search` reads, and the file name endings each kind accepts. */
export const SEARCH_FILE_TYPES = ['csv', 'pdf', 'txt', 'json', 'docx', 'mdx', 'xml', 'directory'] as const;
export type SearchFileType = (typeof SEARCH_FILE_TYPES)[number];
export const SEARCH_FILE_EXTENSIONS: Readonly<Record<Exclude<SearchFileType, 'directory'>, readonly string[]>> = {
  csv: ['.csv'],
  pdf: ['.pdf'],
  txt: ['.txt'],
  json: ['.json'],
  docx: ['.docx'],
  mdx: ['.mdx', '.md', '.markdown'],
  xml: ['.xml'],
};

const pinnedPath = z.string().min(1).max(4096);
const resultLimit = z.number().int().min(1).max(20);
const minScore = z.number().min(0).max(1);

export const ReadFileConfigSchema = z.strictObject({
  /** The file it always reads (CrewAI's `FileReadTool(file_path=…)`): the model gives no path. */
  path: pinnedPath.optional(),
});

export const ListDirectoryConfigSchema = z.strictObject({
  /** The folder it always lists (CrewAI's `DirectoryReadTool(directory=…)`). */
  path: pinnedPath.optional(),
  /** Always list sub-folders too (CrewAI's DirectoryReadTool does); the model then has no `recursive` argument. */
  recursive: z.boolean().optional(),
});

export const WriteFileConfigSchema = z.strictObject({
  /** Lets the tool change the workspace's documents (crewdeck.json, crews, flows and their files); never `.git/` or `.crewdeck/`. */
  allowDocumentWrites: z.boolean().optional(),
  /** The file it always writes: the model gives only the content. */
  path: pinnedPath.optional(),
  /** Writes go inside this folder (CrewAI's `FileWriterTool(base_dir=…)`). */
  directory: pinnedPath.optional(),
  /**
   * `crewai`: the arguments of CrewAI's FileWriterTool (`filename`, `content`, `directory`, `overwrite`;
   * an existing file is kept unless `overwrite` is true). Default: `path`, `content`, `append`.
   */
  argumentStyle: z.enum(['crewdeck', 'crewai']).optional(),
});

export const HttpRequestConfigSchema = z.strictObject({
  allowedHosts: z.array(z.string().min(1)).optional(),
  timeoutMs: z.number().int().positive().optional(),
});

export const WebSearchConfigSchema = z
  .strictObject({
    provider: z.enum(SEARCH_PROVIDERS).optional(),
    /** How many results come back (default 10). */
    resultCount: z.number().int().min(1).max(100).optional(),
    /** `search` (web pages, the default) or `news`. */
    searchType: z.enum(['search', 'news']).optional(),
    /** Country code (`us`, `de`…): Serper's `gl`, Brave's and Tavily's `country`. */
    country: z.string().min(1).max(60).optional(),
    /** Serper's `location` ("Austin, Texas"). */
    location: z.string().min(1).max(200).optional(),
    /** Language of the results (`en`, `fr`…): Serper's `hl`, Brave's `search_lang`. */
    locale: z.string().min(1).max(20).optional(),
    /** The provider's API root; another host is held by workspace trust. */
    baseUrl: HttpUrlSchema.optional(),
  })
  .superRefine((config, ctx) => {
    const provider = config.provider ?? 'serper';
    const info = SEARCH_PROVIDER_INFO[provider];
    for (const key of ['country', 'location', 'locale'] as const) {
      if (config[key] !== undefined && !info.has[key]) ctx.addIssue({ code: 'custom', path: [key], message: `${info.label} has no ${key} setting` });
    }
  });

export const ScrapeWebsiteConfigSchema = z.strictObject({
  /** The page it always reads (CrewAI's `website_url=`): the model gives no URL. */
  url: HttpUrlSchema.optional(),
  /** `element`: return only what a CSS selector matches (CrewAI's ScrapeElementFromWebsiteTool). */
  variant: z.enum(['page', 'element']).optional(),
  /** The CSS selector it always uses (CrewAI's `css_element=`); implies `variant: "element"`. */
  selector: z.string().min(1).max(1000).optional(),
  /** The text returned is cut to this many characters (default 20,000). */
  maxChars: z.number().int().min(100).max(1_000_000).optional(),
});

export const WebsiteSearchConfigSchema = z.strictObject({
  /** The page it always searches (CrewAI's `website=`). */
  url: HttpUrlSchema.optional(),
  limit: resultLimit.optional(),
  minScore: minScore.optional(),
});

export const FileSearchConfigSchema = z
  .strictObject({
    /** The file (or, for `directory`, the folder) it always searches (CrewAI's `csv=`, `pdf=`, `directory=`…). */
    path: pinnedPath.optional(),
    /** Which kind of file it searches; without it, any supported file (by its name's ending). */
    fileType: z.enum(SEARCH_FILE_TYPES).optional(),
    limit: resultLimit.optional(),
    minScore: minScore.optional(),
  })
  .superRefine((config, ctx) => {
    if (config.path === undefined || config.fileType === undefined || config.fileType === 'directory') return;
    const endings = SEARCH_FILE_EXTENSIONS[config.fileType];
    if (!endings.some((e) => config.path!.toLowerCase().endsWith(e))) {
      ctx.addIssue({ code: 'custom', path: ['path'], message: `a ${config.fileType} file must end with ${endings.join(' or ')}` });
    }
  });

const NoConfig = z.strictObject({});

/** The settings schema of every built-in tool, by tool id. */
export const TOOL_CONFIG_SCHEMAS = {
  read_file: ReadFileConfigSchema,
  write_file: WriteFileConfigSchema,
  list_directory: ListDirectoryConfigSchema,
  http_request: HttpRequestConfigSchema,
  calculator: NoConfig,
  current_time: NoConfig,
  search_memory: NoConfig,
  save_memory: NoConfig,
  web_search: WebSearchConfigSchema,
  scrape_website: ScrapeWebsiteConfigSchema,
  website_search: WebsiteSearchConfigSchema,
  file_search: FileSearchConfigSchema,
} as const;

export type WebSearchConfig = z.infer<typeof WebSearchConfigSchema>;
export type ScrapeWebsiteConfig = z.infer<typeof ScrapeWebsiteConfigSchema>;
export type WebsiteSearchConfig = z.infer<typeof WebsiteSearchConfigSchema>;
export type FileSearchConfig = z.infer<typeof FileSearchConfigSchema>;
export type ReadFileConfig = z.infer<typeof ReadFileConfigSchema>;
export type ListDirectoryConfig = z.infer<typeof ListDirectoryConfigSchema>;
export type WriteFileConfig = z.infer<typeof WriteFileConfigSchema>;
export type HttpRequestConfig = z.infer<typeof HttpRequestConfigSchema>;

/** One problem in a tool's settings, with its path inside `config`. */
export interface ToolConfigProblem {
  path: (string | number)[];
  message: string;
}

/** What is wrong with a built-in tool's settings (none for other tools, whose settings are their own). */
export function toolConfigProblems(tool: string, config: unknown): ToolConfigProblem[] {
  const schema = (TOOL_CONFIG_SCHEMAS as Record<string, z.ZodType>)[tool];
  if (!schema || config === undefined) return [];
  const result = schema.safeParse(config);
  if (result.success) return [];
  return result.error.issues.flatMap((issue): ToolConfigProblem[] => {
    const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ path: [...path, key], message: `${tool} has no setting "${key}"` }));
    return [{ path, message: issue.message }];
  });
}

/** The key variable a tool reference needs, when it needs one (web search: its provider's). */
export function toolKeyVariable(tool: string, config: unknown): string | undefined {
  if (tool !== 'web_search') return undefined;
  const provider = (config as { provider?: unknown } | undefined)?.provider;
  const known = typeof provider === 'string' && (SEARCH_PROVIDERS as readonly string[]).includes(provider) ? (provider as SearchProvider) : 'serper';
  return SEARCH_PROVIDER_INFO[known].keyVariable;
}
