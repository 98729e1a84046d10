import { htmlToText } from './htmlText';
import { fetchedText, fetchUrl, UrlFetchFailed, type FetchedUrl } from './fetchUrlText';
import { pdfToText } from './pdfText';
import { plainNamesTrusted } from '../trust/workspaceTrust';
import { ToolError, type ReadablePage } from '../tools/tool';

/** A page is read up to this many bytes; the rest is not downloaded. */
export const PAGE_MAX_BYTES = 5 * 1024 * 1024;
export const PAGE_TIMEOUT_MS = 30_000;

/**
 * Downloads a page through the guarded fetch. A URL pinned in the tool's settings is reached as a
 * knowledge URL is (a local host it names was held by workspace trust before the run; a plain name may
 * resolve to a private address once the workspace is trusted); a URL the model chose gets the policy of
 * model-chosen URLs: public addresses only.
 */
export async function downloadPage(url: string, options: { pinned: boolean; workspace: string; signal: AbortSignal }): Promise<FetchedUrl> {
  if (!/^https?:\/\//i.test(url)) throw new ToolError(`"${url}" is not an http(s) URL; give the full address, e.g. https://example.com/page`);
  try {
    return await fetchUrl(url, {
      signal: options.signal,
      maxBytes: PAGE_MAX_BYTES,
      timeoutMs: PAGE_TIMEOUT_MS,
      cut: true,
      modelChosen: !options.pinned,
      trustNamedHost: options.pinned && plainNamesTrusted(options.workspace),
    });
  } catch (error) {
    if (error instanceof UrlFetchFailed) throw new ToolError(`cannot read ${url}: ${error.message}`);
    throw error;
  }
}

/** A downloaded page as readable text: HTML's main content (Readability), PDF's text, other text as it is. */
export async function readablePage(url: string, page: FetchedUrl): Promise<ReadablePage> {
  const cut = page.cut === true;
  if (page.contentType === 'application/pdf') return { url, text: await pdfText(page.bytes, url), cut };
  const raw = new TextDecoder('utf-8').decode(page.bytes);
  if (!looksHtml(page.contentType, raw)) {
    if (page.contentType.startsWith('image/') || page.contentType.startsWith('audio/') || page.contentType.startsWith('video/')) {
      throw new ToolError(`${url} is ${page.contentType}, not a page with text`);
    }
    return { url, text: fetchedText(page), cut };
  }
  const { document } = await parse(raw);
  const { Readability } = await import('@mozilla/readability');
  const article = new Readability(document as never, { charThreshold: 200 }).parse();
  const main = article?.content ? htmlToText(article.content) : '';
  if (main !== '') return { url, title: article?.title || undefined, text: main, cut };
  // No article found (a short page): the body without navigation, headers, footers and side bars.
  const fallback = (await parse(raw)).document;
  for (const node of [...(fallback.querySelectorAll('script, style, noscript, template, nav, header, footer, aside, form') as Iterable<{ remove(): void }>)]) node.remove();
  return { url, title: fallback.title || undefined, text: htmlToText(fallback.body?.innerHTML ?? raw), cut };
}

/** The text of every element a CSS selector matches, one per line (CrewAI's ScrapeElementFromWebsiteTool). */
export async function selectedText(page: FetchedUrl, selector: string): Promise<string[]> {
  const raw = new TextDecoder('utf-8').decode(page.bytes);
  const { document } = await parse(raw);
  let nodes: { outerHTML: string }[];
  try {
    nodes = [...(document.querySelectorAll(selector) as Iterable<{ outerHTML: string }>)];
  } catch (error) {
    throw new ToolError(`"${selector}" is not a CSS selector this tool can use: ${(error as Error).message}`);
  }
  return nodes.map((node) => htmlToText(node.outerHTML)).filter((text) => text !== '');
}

function looksHtml(contentType: string, raw: string): boolean {
  return contentType === 'text/html' || contentType === 'application/xhtml+xml' || (contentType === '' && /^\s*<(!doctype html|html)\b/i.test(raw));
}

/** The part of a parsed page this reads (linkedom's types are the DOM's, which not every build of this file loads). */
interface ParsedPage {
  document: {
    title: string;
    body: { innerHTML: string } | null;
    querySelectorAll(selector: string): Iterable<unknown>;
  };
}

async function parse(html: string): Promise<ParsedPage> {
  // linkedom is loaded when a page is first read, not when a run starts.
  const { parseHTML } = await import('linkedom');
  // A fragment (no <html> element) gets a document around it, so it has a body to read.
  return parseHTML(/<html[\s>]/i.test(html) ? html : `<!doctype html><html><head></head><body>${html}</body></html>`) as unknown as ParsedPage;
}

async function pdfText(bytes: Uint8Array, url: string): Promise<string> {
  try {
    return await pdfToText(bytes);
  } catch (error) {
    throw new ToolError(`${url} is not a readable PDF (${(error as Error).message})`);
  }
}
