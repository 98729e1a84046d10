import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { csvToText, parseCsv } from '../../runtime/knowledge/csvText';
import { KnowledgeSourceError } from '../../runtime/knowledge/errors';
import { htmlToText } from '../../runtime/knowledge/htmlText';
import { loadSource } from '../../runtime/knowledge/loadSource';
import { makePdf } from './makePdf';

const FIXTURES = join(__dirname, '..', 'fixtures', 'knowledge');
let ws: string;

beforeEach(() => {
  ws = mkdtempSync(join(tmpdir(), 'crewdeck-knowledge-'));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

const file = (path: string, name?: string) => ({ type: 'file' as const, path, ...(name ? { name } : {}) });

async function failure(promise: Promise<unknown>): Promise<KnowledgeSourceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KnowledgeSourceError);
  return error as KnowledgeSourceError;
}

describe('loading knowledge sources', () => {
  it('keeps inline text, keyed by its owner and name', async () => {
    const loaded = await loadSource(ws, { type: 'text', name: 'policy', text: 'Refunds within 30 days.\r\n' }, { owner: 'shop' });
    expect(loaded).toEqual({ key: 'text:shop/policy', name: 'policy', type: 'text', text: 'Refunds within 30 days.\n' });
  });

  it('reads .txt and .md files, named after the file unless a name is given', async () => {
    mkdirSync(join(ws, 'docs'));
    writeFileSync(join(ws, 'docs', 'notes.txt'), '\uFEFFPlain notes.');
    writeFileSync(join(ws, 'docs', 'guide.md'), '# Guide\n\nUse **bold**.');
    expect(await loadSource(ws, file('./docs/notes.txt'))).toMatchObject({ key: 'file:docs/notes.txt', name: 'notes.txt', text: 'Plain notes.' });
    expect(await loadSource(ws, file('docs/guide.md', 'The guide'))).toMatchObject({ name: 'The guide', text: '# Guide\n\nUse **bold**.' });
  });

  it('turns CSV rows into header: value lines', async () => {
    copyFileSync(join(FIXTURES, 'people.csv'), join(ws, 'people.csv'));
    const loaded = await loadSource(ws, file('people.csv'));
    expect(loaded.text).toBe('name: Ada Lovelace; role: engineer; team: analytics\nname: Grace Hopper; role: admiral, compiler author; team: navy');
    expect(parseCsv('a,"b ""q""\nline",c\r\n1,2,3')).toEqual([['a', 'b "q"\nline', 'c'], ['1', '2', '3']]);
    expect(csvToText('a,b\n1,\n,\n')).toBe('a: 1');
  });

  it('pretty-prints JSON and rejects broken JSON naming the file', async () => {
    writeFileSync(join(ws, 'data.json'), '{"plan":{"name":"Pro","price":42}}');
    expect((await loadSource(ws, file('data.json'))).text).toBe('{\n  "plan": {\n    "name": "Pro",\n    "price": 42\n  }\n}');
    writeFileSync(join(ws, 'bad.json'), '{"plan":');
    const error = await failure(loadSource(ws, file('bad.json')));
    expect(error.message).toMatch(/^knowledge source "bad.json": is not valid JSON/);
  });

  it('extracts the text of a real PDF (every page) with unpdf', async () => {
    copyFileSync(join(FIXTURES, 'warranty.pdf'), join(ws, 'warranty.pdf'));
    const loaded = await loadSource(ws, file('warranty.pdf'));
    expect(loaded.name).toBe('warranty.pdf');
    expect(loaded.text).toContain('Sunbright panels carry a 25 year performance warranty.');
    expect(loaded.text).toContain('Inverters are covered for 12 years, parts and labour.');
    writeFileSync(join(ws, 'generated.pdf'), makePdf([['Escaped (brackets) and back\\slash.']]));
    expect((await loadSource(ws, file('generated.pdf'))).text).toBe('Escaped (brackets) and back\\slash.');
  });

  it('reports an unreadable PDF, a missing file, an unknown type, empty text and paths outside the workspace', async () => {
    writeFileSync(join(ws, 'broken.pdf'), 'this is not a pdf');
    expect((await failure(loadSource(ws, file('broken.pdf')))).message).toMatch(/^knowledge source "broken.pdf": is not a readable PDF \(/);
    expect((await failure(loadSource(ws, file('missing.md')))).message).toBe('knowledge source "missing.md": file not found (missing.md)');
    writeFileSync(join(ws, 'slides.pptx'), 'x');
    expect((await failure(loadSource(ws, file('slides.pptx')))).message).toBe(
      'knowledge source "slides.pptx": unsupported file type ".pptx"; use .txt, .md, .csv, .json, .pdf, .docx, .xml',
    );
    writeFileSync(join(ws, 'empty.txt'), '  \n');
    expect((await failure(loadSource(ws, file('empty.txt')))).problem).toBe('has no text to learn from');
    expect((await failure(loadSource(ws, file('../outside.txt')))).message).toMatch(/^knowledge source "..\/outside.txt": path "..\/outside.txt" is outside the workspace/);
    const outside = mkdtempSync(join(tmpdir(), 'crewdeck-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    symlinkSync(join(outside, 'secret.txt'), join(ws, 'link.txt'));
    expect((await failure(loadSource(ws, file('link.txt')))).message).toMatch(/leads outside the workspace through a symbolic link/);
    rmSync(outside, { recursive: true, force: true });
  });
});

describe('loading URLs', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/page') {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end('<!doctype html><html><head><title>t</title><style>p{}</style></head><body><script>alert(1)</script><h1>Prices</h1><p>Panels cost &euro;420 &amp; up.</p><ul><li>One</li><li>Two</li></ul></body></html>');
      } else if (req.url === '/data.csv') {
        res.setHeader('content-type', 'text/csv');
        res.end('sku,price\nSP-1,420\n');
      } else if (req.url === '/doc.pdf') {
        res.setHeader('content-type', 'application/pdf');
        res.end(makePdf([['PDF served over HTTP.']]));
      } else if (req.url === '/big') {
        res.setHeader('content-type', 'text/plain');
        res.write('x'.repeat(4096));
        res.end('y'.repeat(4096));
      } else if (req.url === '/slow') {
        setTimeout(() => res.end('late'), 2000);
      } else {
        res.statusCode = 404;
        res.end('nope');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const url = (path: string, name?: string) => ({ type: 'url' as const, url: `${base}${path}`, ...(name ? { name } : {}) });

  it('strips HTML to text', async () => {
    const loaded = await loadSource(ws, url('/page', 'price page'));
    expect(loaded).toMatchObject({ key: `url:${base}/page`, name: 'price page', type: 'url' });
    expect(loaded.text).toBe('Prices\n\nPanels cost €420 & up.\n\nOne\n\nTwo');
    expect(htmlToText('<p>a&nbsp;b &#65;&#x42; &bogus;</p>')).toBe('a b AB &bogus;');
  });

  it('reads CSV and PDF responses like files', async () => {
    expect((await loadSource(ws, url('/data.csv'))).text).toBe('sku: SP-1; price: 420');
    expect((await loadSource(ws, url('/doc.pdf'))).text).toBe('PDF served over HTTP.');
  });

  it('reports HTTP errors, oversized bodies and timeouts naming the URL', async () => {
    expect((await failure(loadSource(ws, url('/missing')))).message).toBe(`knowledge source <${base}/missing>: HTTP 404 Not Found`);
    expect((await failure(loadSource(ws, url('/big'), { maxBytes: 5000 }))).problem).toBe('the response is over the limit of 5000 bytes');
    expect((await failure(loadSource(ws, url('/slow'), { timeoutMs: 200 }))).problem).toBe('no complete response within 200 ms');
  });
});
