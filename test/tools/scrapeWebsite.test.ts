import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolKnowledge } from '../../runtime/knowledge/toolKnowledge';
import { scrapeWebsiteTool } from '../../runtime/tools/scrapeWebsite';
import type { ToolContext } from '../../runtime/tools/tool';

const ARTICLE_PAGE = `<!doctype html>
<html><head><title>Lyon bakery news</title>
<script>window.tracking = "var tracking pixel";</script><style>.menu { color: red }</style></head>
<body>
<header><div class="logo">Bakery Daily</div><nav class="menu"><ul><li><a href="/">Home</a></li><li><a href="/shop">Shop menu item</a></li><li><a href="/about">About us</a></li></ul></nav></header>
<aside class="sidebar"><h3>Popular</h3><ul><li>Ten croissant tricks</li><li>Best baguettes</li></ul></aside>
<main><article>
<h1>Maison Pichon wins the sourdough prize</h1>
<p>The Lyon bakery Maison Pichon won the regional sourdough prize on Tuesday, beating forty other bakeries from across the Rhône valley with a loaf fermented for three days.</p>
<p>Its head baker, Claire Pichon, said the secret is patience and a local rye flour, milled in the Beaujolais hills, that feeds a starter the family has kept alive since 1987.</p>
<p>The jury praised the open crumb and the deep, slightly sour crust, and the bakery will represent the region at the national competition in Paris next spring.</p>
<p class="price">Loaf: 12 €</p><p class="price">Half loaf: 7 €</p>
</article></main>
<footer>© 2024 Bakery Daily · Privacy · Cookies</footer>
<script>document.write("injected script text")</script>
</body></html>`;

let base = '';
let server: http.Server;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/article') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE_PAGE);
    if (req.url === '/big') {
      // 20 MB of HTML, streamed: the tool stops reading at its cap and closes the connection.
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = `<p>${'crumb '.repeat(1000)}</p>\n`;
      let sent = 0;
      const write = () => {
        while (sent < 20 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        res.end();
      };
      res.on('error', () => undefined);
      write();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function ctx(config: Record<string, unknown>): ToolContext {
  return { workspace: '/nonexistent', signal: new AbortController().signal, agentRole: 'Reader', config, services: { env: {}, knowledge: createToolKnowledge('/nonexistent') } };
}

describe('scrape_website', () => {
  it('gives the article text of a page with menus, side bars, scripts and a footer', async () => {
    const out = await scrapeWebsiteTool.execute({}, ctx({ url: `${base}/article` }));
    expect(out.startsWith(`Lyon bakery news\n${base}/article\n\n`)).toBe(true);
    expect(out).toContain('The Lyon bakery Maison Pichon won the regional sourdough prize on Tuesday');
    expect(out).toContain('that feeds a starter the family has kept alive since 1987.');
    for (const noise of ['Shop menu item', 'About us', 'Ten croissant tricks', 'var tracking pixel', 'injected script text', 'Privacy · Cookies', '.menu']) {
      expect(out, noise).not.toContain(noise);
    }
  });

  it('with a selector gives the text of the elements it matches', async () => {
    expect(await scrapeWebsiteTool.execute({}, ctx({ url: `${base}/article`, selector: 'article .price' }))).toBe('Loaf: 12 €\nHalf loaf: 7 €');
    // The element variant without a pinned selector takes it from the model.
    expect(scrapeWebsiteTool.forConfig!({ url: `${base}/article`, variant: 'element' }).parameters).toMatchObject({ required: ['selector'] });
    expect(await scrapeWebsiteTool.execute({ selector: 'h1' }, ctx({ url: `${base}/article`, variant: 'element' }))).toBe('Maison Pichon wins the sourdough prize');
  });

  it('says so when a selector matches nothing or is not a selector', async () => {
    await expect(scrapeWebsiteTool.execute({}, ctx({ url: `${base}/article`, selector: '.no-such-thing' }))).rejects.toThrow(`no element on ${base}/article matches the CSS selector ".no-such-thing"`);
    await expect(scrapeWebsiteTool.execute({}, ctx({ url: `${base}/article`, selector: 'p[[' }))).rejects.toThrow('"p[[" is not a CSS selector this tool can use');
  });

  it('caps a 20 MB page: reads its start only and cuts the text', async () => {
    const out = await scrapeWebsiteTool.execute({}, ctx({ url: `${base}/big`, maxChars: 5000 }));
    expect(out).toMatch(/\n\n\[the text was cut to its first 5000 characters; the page is larger than the download limit; only its start was read\]$/);
    expect(out.length).toBeLessThan(5200);
  });

  it('a URL the model chooses keeps the address policy of model-chosen URLs: loopback is refused', async () => {
    await expect(scrapeWebsiteTool.execute({ url: `${base}/article` }, ctx({}))).rejects.toThrow(`cannot read ${base}/article: request to ${base}/article refused: 127.0.0.1 is a loopback address`);
  });

  it('offers the model only the arguments the settings leave open', () => {
    expect(scrapeWebsiteTool.parameters).toMatchObject({ required: ['url'] });
    expect(scrapeWebsiteTool.forConfig!({ url: 'https://example.com/' }).parameters).toMatchObject({ properties: {}, required: [] });
    expect(scrapeWebsiteTool.forConfig!({ variant: 'element' }).parameters).toMatchObject({ required: ['url', 'selector'] });
  });
});
