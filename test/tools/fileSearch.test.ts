import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolKnowledge } from '../../runtime/knowledge/toolKnowledge';
import { openWorkspaceKnowledge } from '../../runtime/knowledge/workspaceKnowledge';
import { fileSearchTool } from '../../runtime/tools/fileSearch';
import type { ToolContext } from '../../runtime/tools/tool';
import { websiteSearchTool } from '../../runtime/tools/websiteSearch';
import { makePdf } from '../knowledge/makePdf';
import { tempWorkspace } from '../support/crewHarness';
import { makeDocx } from '../support/makeDocx';

/**
 * file_search and website_search over fixture files of every type (written here): each file holds one
 * passage that answers a question among passages about other things, in several chunks.
 */

const TOPICS = [
  'The harbour committee reviewed tide tables and mooring fees for the autumn regatta',
  'Volunteers repainted the lighthouse railings after the winter storms damaged them',
  'The museum catalogued three hundred postcards donated by a retired ferry captain',
  'A survey of migrating terns counted nests along the northern dunes in June',
  'The cycling club mapped a coastal route that avoids the busy ring road',
  'Engineers replaced the swing bridge motor and tested the hydraulic locks twice',
];
/** About 1,500 characters on unrelated subjects (more than one search chunk). */
function filler(seed: number): string {
  return Array.from({ length: 12 }, (_, i) => `${TOPICS[(seed + i) % TOPICS.length]} (note ${seed}.${i}).`).join(' ');
}

const QUESTION = 'How many hours does the Maison Pichon sourdough ferment?';
const ANSWER = 'At Maison Pichon the sourdough dough ferments for seventy-two hours before baking';

const ws = tempWorkspace('crewdeck-filesearch-');
let pageServer: http.Server;
let pageBase = '';

beforeAll(async () => {
  const write = (path: string, content: string | Buffer) => {
    mkdirSync(join(ws.dir, path, '..'), { recursive: true });
    writeFileSync(join(ws.dir, path), content);
  };
  write('data/sales.csv', ['region,product,units,comment', ...Array.from({ length: 40 }, (_, i) => `Region ${i},${['baguette', 'brioche', 'rye'][i % 3]},${100 + i},${TOPICS[i % TOPICS.length]}`), `Lyon,sourdough,900,"${ANSWER}"`].join('\n'));
  write('docs/handbook.pdf', makePdf([[filler(1).slice(0, 90), filler(2).slice(0, 90)], [ANSWER, 'The bakery opens at six.'], [filler(3).slice(0, 90)]]));
  write('notes/visit.txt', `${filler(4)}\n\n${ANSWER}.\n\n${filler(5)}`);
  write('catalog.json', JSON.stringify({ shops: [{ name: 'Harbour shop', note: filler(6) }, { name: 'Maison Pichon', process: `${ANSWER}.` }, { name: 'Museum cafe', note: filler(7) }] }));
  write('contract.docx', makeDocx([filler(8), `${ANSWER}.`, filler(9)]));
  write('guide.mdx', `# Guide\n\n${filler(10)}\n\n## Bread\n\n<Callout>${ANSWER}.</Callout>\n\n${filler(11)}`);
  write('feed.xml', `<?xml version="1.0"?><feed><entry><title>Harbour</title><summary>${filler(12)}</summary></entry><entry><title>Bakery</title><summary>${ANSWER}.</summary></entry></feed>`);
  write('library/a-harbour.md', filler(13));
  write('library/b-bridge.txt', filler(14));
  write('library/deep/c-bakery.md', `# Bakery\n\n${ANSWER}.`);
  write('library/.git/ignored.md', ANSWER);

  pageServer = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>Bakery visit</title></head><body><nav>Home · Shop</nav><article><h1>A visit</h1>${[filler(15), `${ANSWER}.`, filler(16)].map((p) => `<p>${p}</p>`).join('')}</article></body></html>`);
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  pageBase = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  pageServer.closeAllConnections();
  await new Promise((resolve) => pageServer.close(resolve));
  ws.remove();
});

function ctx(config: Record<string, unknown>): ToolContext {
  return { workspace: ws.dir, signal: new AbortController().signal, agentRole: 'Researcher', config, services: { env: {}, knowledge: createToolKnowledge(ws.dir) } };
}

async function storeVersion(): Promise<number> {
  const store = await openWorkspaceKnowledge(ws.dir);
  try {
    return await store.version();
  } finally {
    store.close();
  }
}

/** The first passage of a search result: its source and text. */
function firstMatch(out: string): { source: string; text: string } {
  const m = /^Relevant Content:\n\n\[Source: ([^\]]+)\] ([\s\S]*?)(?=\n\n\[Source: |$)/.exec(out);
  if (!m) throw new Error(`not a search result:\n${out}`);
  return { source: m[1]!, text: m[2]! };
}

const FILES: [fileType: string, path: string][] = [
  ['csv', 'data/sales.csv'],
  ['pdf', 'docs/handbook.pdf'],
  ['txt', 'notes/visit.txt'],
  ['json', 'catalog.json'],
  ['docx', 'contract.docx'],
  ['mdx', 'guide.mdx'],
  ['xml', 'feed.xml'],
];

describe('file_search', () => {
  it.each(FILES)('%s: returns the chunk that answers, with its source; a second search does not ingest again', async (fileType, path) => {
    const out = await fileSearchTool.execute({ query: QUESTION }, ctx({ fileType, path }));
    const first = firstMatch(out);
    expect(first.source).toBe(path);
    expect(first.text.replace(/\s+/g, ' ')).toContain('ferments for seventy-two hours');
    const before = await storeVersion();
    expect(await fileSearchTool.execute({ query: QUESTION }, ctx({ fileType, path }))).toBe(out);
    expect(await storeVersion()).toBe(before);
  });

  it('directory: searches every readable file below it (not .git), the answer from the file that has it', async () => {
    const out = await fileSearchTool.execute({ query: QUESTION, path: 'library' }, ctx({ fileType: 'directory' }));
    expect(firstMatch(out)).toMatchObject({ source: 'library/deep/c-bakery.md', text: expect.stringContaining('seventy-two hours') });
    expect(out).not.toContain('library/.git');
    const before = await storeVersion();
    await fileSearchTool.execute({ query: QUESTION, path: 'library' }, ctx({ fileType: 'directory' }));
    expect(await storeVersion()).toBe(before);
  });

  it('a file the model names must be of the kind the tool searches, inside the workspace', async () => {
    await expect(fileSearchTool.execute({ query: 'x', path: 'notes/visit.txt' }, ctx({ fileType: 'pdf' }))).rejects.toThrow('"notes/visit.txt" is not a PDF file (.pdf); this tool searches PDF files');
    await expect(fileSearchTool.execute({ query: 'x', path: '../outside.csv' }, ctx({}))).rejects.toThrow('is outside the workspace');
    await expect(fileSearchTool.execute({ query: 'x', path: 'nope.csv' }, ctx({}))).rejects.toThrow('"nope.csv" does not exist in the workspace');
  });

  it('takes no path argument when the path is pinned', () => {
    expect(fileSearchTool.forConfig!({ path: 'docs/handbook.pdf', fileType: 'pdf' }).parameters).toEqual({ type: 'object', properties: { query: expect.any(Object) }, required: ['query'], additionalProperties: false });
  });
});

describe('website_search', () => {
  it('returns the passage of the page that answers, with the page as its source; a second search does not ingest again', async () => {
    const url = `${pageBase}/visit`;
    const out = await websiteSearchTool.execute({ query: QUESTION }, ctx({ url }));
    expect(firstMatch(out)).toMatchObject({ source: url, text: expect.stringContaining('seventy-two hours') });
    expect(out).not.toContain('Home · Shop');
    const before = await storeVersion();
    expect(await websiteSearchTool.execute({ query: QUESTION }, ctx({ url }))).toBe(out);
    expect(await storeVersion()).toBe(before);
  });
});
