import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { KnowledgeSource } from '../../shared/model/crew';
import { errorMessage } from '../errors';
import { displayPath, resolveInWorkspace } from '../tools/workspacePath';
import { plainNamesTrusted } from '../trust/workspaceTrust';
import { csvToText } from './csvText';
import { KnowledgeSourceError } from './errors';
import { fetchedText, fetchUrl, type UrlLimits } from './fetchUrlText';
import { pdfToText } from './pdfText';
import { docxToText } from './docxText';
import { xmlToText } from './xmlText';

/** Files larger than this are refused (a PDF's text is usually far smaller than the file). */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;

export const FILE_KINDS = ['.txt', '.md', '.markdown', '.mdx', '.csv', '.json', '.pdf', '.docx', '.xml'] as const;

/** A source's text, ready to chunk. */
export interface LoadedSource {
  /** Identifies the source in the store: `file:<workspace path>`, `url:<url>` or `text:<owner>/<name>`. */
  key: string;
  /** Shown in prompts and listings: the given name, else the file name or URL. */
  name: string;
  type: KnowledgeSource['type'];
  text: string;
}

export interface LoadOptions extends UrlLimits {
  /** Who declares a text source (e.g. the crew id), so equal names in two crews do not collide. */
  owner?: string;
}

/** How a source is written, for error messages. */
export function describeSource(source: KnowledgeSource): string {
  if (source.type === 'file') return `"${source.path}"`;
  if (source.type === 'url') return `<${source.url}>`;
  return `text "${source.name}"`;
}

/** The store key of a source, without loading it (file paths are normalised to forward slashes, no `./`). */
export function sourceKey(source: KnowledgeSource, owner = ''): string {
  if (source.type === 'file') return `file:${normalisePath(source.path)}`;
  if (source.type === 'url') return `url:${source.url}`;
  return `text:${owner ? `${owner}/` : ''}${source.name}`;
}

export function sourceName(source: KnowledgeSource): string {
  if (source.type === 'text') return source.name;
  if (source.name) return source.name;
  return source.type === 'file' ? basename(source.path) : source.url;
}

function normalisePath(path: string): string {
  return path
    .split(/[/\\]+/)
    .filter((s) => s !== '' && s !== '.')
    .join('/');
}

/** Reads a source. Every failure is a KnowledgeSourceError naming the source and the problem. */
export async function loadSource(workspace: string, source: KnowledgeSource, options: LoadOptions = {}): Promise<LoadedSource> {
  const label = describeSource(source);
  let text: string;
  try {
    if (source.type === 'text') text = source.text;
    else if (source.type === 'file') text = await loadFile(workspace, source.path, label);
    else text = await loadUrl(source.url, label, { ...options, trustNamedHost: options.trustNamedHost ?? plainNamesTrusted(workspace) });
  } catch (error) {
    if (error instanceof KnowledgeSourceError) throw error;
    if (options.signal?.aborted) throw error;
    throw new KnowledgeSourceError(label, errorMessage(error));
  }
  text = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (text.trim() === '') throw new KnowledgeSourceError(label, 'has no text to learn from');
  return {
    key: sourceKey(source, options.owner),
    name: sourceName(source),
    type: source.type,
    text,
  };
}

async function loadFile(workspace: string, path: string, label: string): Promise<string> {
  const ext = extname(path).toLowerCase();
  if (!(FILE_KINDS as readonly string[]).includes(ext)) {
    throw new KnowledgeSourceError(label, `unsupported file type "${ext || '(none)'}"; use ${FILE_KINDS.filter((k) => k !== '.markdown' && k !== '.mdx').join(', ')}`);
  }
  let absolute: string;
  try {
    absolute = resolveInWorkspace(workspace, path);
  } catch (error) {
    throw new KnowledgeSourceError(label, errorMessage(error).replace(/file tools can only use/, 'knowledge can only use'));
  }
  let size: number;
  try {
    const info = await stat(absolute);
    if (!info.isFile()) throw new KnowledgeSourceError(label, 'is not a file');
    size = info.size;
  } catch (error) {
    if (error instanceof KnowledgeSourceError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new KnowledgeSourceError(label, code === 'ENOENT' ? `file not found (${displayPath(workspace, absolute)})` : errorMessage(error));
  }
  if (size > MAX_FILE_BYTES) throw new KnowledgeSourceError(label, `the file is ${size} bytes, over the limit of ${MAX_FILE_BYTES}`);
  const bytes = await readFile(absolute);
  return textOf(ext, bytes, label);
}

async function loadUrl(url: string, label: string, limits: UrlLimits): Promise<string> {
  const page = await fetchUrl(url, limits);
  const type = page.contentType;
  if (type === 'application/pdf' || (type === 'application/octet-stream' && /\.pdf$/i.test(new URL(url).pathname))) return textOf('.pdf', page.bytes, label);
  if (type === 'text/csv') return textOf('.csv', page.bytes, label);
  if (type === 'application/json' || type.endsWith('+json')) return textOf('.json', page.bytes, label);
  if (type === '' || type.startsWith('text/') || type === 'application/xhtml+xml' || type === 'application/xml') return fetchedText(page);
  throw new KnowledgeSourceError(label, `unsupported content type "${type}"; knowledge URLs must serve text, HTML, CSV, JSON or PDF`);
}

async function textOf(ext: string, bytes: Uint8Array, label: string): Promise<string> {
  if (ext === '.docx') {
    try {
      return await docxToText(bytes);
    } catch (error) {
      throw new KnowledgeSourceError(label, `is not a readable Word document (${errorMessage(error)})`);
    }
  }
  if (ext === '.xml') {
    try {
      return await xmlToText(new TextDecoder('utf-8').decode(bytes));
    } catch (error) {
      throw new KnowledgeSourceError(label, `is not readable XML (${errorMessage(error)})`);
    }
  }
  if (ext === '.pdf') {
    try {
      return await pdfToText(bytes);
    } catch (error) {
      throw new KnowledgeSourceError(label, `is not a readable PDF (${errorMessage(error)})`);
    }
  }
  const text = new TextDecoder('utf-8').decode(bytes);
  if (ext === '.csv') {
    try {
      return csvToText(text);
    } catch (error) {
      throw new KnowledgeSourceError(label, `is not valid CSV (${errorMessage(error)})`);
    }
  }
  if (ext === '.json') {
    try {
      return JSON.stringify(JSON.parse(text.replace(/^\uFEFF/, '')), null, 2);
    } catch (error) {
      throw new KnowledgeSourceError(label, `is not valid JSON (${errorMessage(error)})`);
    }
  }
  return text;
}
