import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_KEYS, startFakeProviders, type FakeProviders } from '../test/support/fakeSearchProviders';
import { startScriptedServer, type ScriptedServer } from '../test/support/scriptedServer';
import { makePdf } from '../test/knowledge/makePdf';
import { configDir, openBrowser, serve, tempWorkspace, type ServedApp, type Session } from './support/app';

/**
 * Issue 27, must-show: a crew drawn from scratch in the app, whose agent has web_search (Serper, its base
 * URL set to a fake Serper on 127.0.0.1 in the tool's settings form) and file_search pinned to a PDF in
 * the workspace, runs on the scripted OpenAI-compatible server once the workspace is trusted through the
 * app's own Trust… flow; the trace has a web_search row and a file_search row with their results.
 * Then Settings → MCP servers adds a catalogue server, which is held (never started here).
 */
const ANSWER = 'At Maison Pichon the sourdough dough ferments for seventy-two hours before baking';
const PDF_PATH = 'docs/handbook.pdf';
const SHOTS = '/tmp/progress';

let model: ScriptedServer;
let search: FakeProviders;
let app: ServedApp;
let session: Session;
let workspace: string;

beforeAll(async () => {
  model = await startScriptedServer();
  search = await startFakeProviders();
  // The model: a web search, then a search of the pinned PDF, then the answer from both.
  model.setHandler((body) => {
    const toolMessages = (body.messages as { role: string }[]).filter((m) => m.role === 'tool').length;
    if (toolMessages === 0) return { toolCalls: [{ name: 'web_search', arguments: { query: 'sourdough fermentation' } }] };
    if (toolMessages === 1) return { toolCalls: [{ name: 'file_search', arguments: { query: 'How many hours does the Maison Pichon sourdough ferment?' } }] };
    return { content: 'Sourdough is fermented with wild yeast; at Maison Pichon the dough ferments for seventy-two hours.' };
  });

  workspace = tempWorkspace('tools-drawn');
  rmSync(join(configDir, 'trusted-workspaces.json'), { force: true });
  mkdirSync(join(workspace, 'docs'), { recursive: true });
  writeFileSync(
    join(workspace, PDF_PATH),
    makePdf([
      ['The harbour committee reviewed tide tables and mooring fees.', 'Volunteers repainted the lighthouse railings.'],
      [ANSWER, 'The bakery opens at six.'],
      ['The cycling club mapped a coastal route.'],
    ]),
  );
  writeFileSync(join(workspace, 'crewdeck.json'), JSON.stringify({ version: 1, models: { default: 'local', profiles: { local: { provider: 'openai', model: 'scripted-model', baseUrl: model.baseUrl } } } }, null, 2));
  app = await serve(workspace, { env: { SERPER_API_KEY: FAKE_KEYS.serper } });
  session = await openBrowser(app.url);
}, 120_000);

afterAll(async () => {
  await session?.close();
  await app?.stop();
  await model?.close();
  await search?.close();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(join(configDir, 'trusted-workspaces.json'), { force: true });
});

const node = (page: Page, nodeId: string) => page.getByTestId(`crew-node-${nodeId}`);
const inspector = (page: Page) => page.getByTestId('inspector');

async function nodeIds(page: Page, kind: 'agent' | 'task'): Promise<string[]> {
  return page.locator(`[data-testid^="crew-node-${kind}:"]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.replace('crew-node-', '')));
}

async function fill(field: Locator, value: string): Promise<void> {
  await field.fill(value);
  await field.blur();
}

/** A picture of one element, in the progress folder. */
async function shotOf(locator: Locator, name: string): Promise<void> {
  await locator.screenshot({ path: join(SHOTS, `appdeck-${name}.png`) });
}

describe('a crew drawn with web search and a PDF search tool', () => {
  it('is drawn from scratch, its tools set in the picker’s settings forms', async () => {
    const { page } = session;
    await page.getByLabel('New crew name').fill('Bread research');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('crew-canvas').waitFor();
    await page.getByTestId('palette-agent').click();
    await page.getByTestId('palette-task').click();
    await expect.poll(() => nodeIds(page, 'agent')).toHaveLength(1);
    await expect.poll(() => nodeIds(page, 'task')).toHaveLength(1);
    const [agent] = await nodeIds(page, 'agent');
    const [task] = await nodeIds(page, 'task');

    await node(page, task!).click();
    await fill(inspector(page).getByLabel('Description', { exact: true }), 'Find out how long sourdough ferments, on the web and in the bakery handbook.');
    await fill(inspector(page).getByLabel('Expected output', { exact: true }), 'One sentence with the hours.');
    await inspector(page).getByTestId('field-agentId').selectOption(agent!.replace('agent:', ''));

    await node(page, agent!).click();
    await fill(inspector(page).getByLabel('Role', { exact: true }), 'Researcher');
    await fill(inspector(page).getByLabel('Goal', { exact: true }), 'Answer bread questions from the web and the handbook');

    // web_search: Serper, 3 results, its base URL the fake Serper.
    await inspector(page).getByTestId('tool-web_search').check();
    const web = inspector(page).getByTestId('tool-web_search-settings');
    await web.waitFor();
    expect(await web.getByTestId('tool-web_search-provider').inputValue()).toBe('serper');
    expect(await web.textContent()).toContain('Reads its key from SERPER_API_KEY.');
    await fill(web.getByTestId('tool-web_search-resultCount'), '3');
    await fill(web.getByTestId('tool-web_search-baseUrl'), search.base);

    // file_search pinned to the PDF.
    await inspector(page).getByTestId('tool-file_search').check();
    const files = inspector(page).getByTestId('tool-file_search-settings');
    await files.getByTestId('tool-file_search-fileType').selectOption('pdf');
    await fill(files.getByTestId('tool-file_search-path'), PDF_PATH);
    await page.locator('[data-testid="save-state"]', { hasText: /^Saved$/ }).waitFor();

    await shotOf(inspector(page).locator('.insp-tool', { has: page.getByTestId('tool-web_search-settings') }), 'tool-settings-web-search');
    await shotOf(inspector(page).locator('.insp-tool', { has: page.getByTestId('tool-file_search-settings') }), 'tool-settings-file-search');
    await web.scrollIntoViewIfNeeded();
    await shotOf(inspector(page), 'tool-settings-inspector');
    expect(await inspector(page).getByTestId('field-problem').count()).toBe(0);

    const saved = JSON.parse(readFileSync(join(workspace, 'bread-research.crew.json'), 'utf8'));
    expect(saved.agents[0].tools).toEqual([
      { tool: 'web_search', config: { resultCount: 3, baseUrl: search.base } },
      { tool: 'file_search', config: { fileType: 'pdf', path: PDF_PATH } },
    ]);
    expect(saved.tasks[0].agentId).toBe(saved.agents[0].id);
    expect(session.errors).toEqual([]);
  });

  it('runs on the scripted server after Trust…; the trace shows a web_search row and a file_search row', async () => {
    const { page } = session;
    await page.getByTestId('run-crew').click();
    // The fake Serper base URL (not Serper's own host, and it receives the key) is held: trusted here, with
    // the code `crewdeck serve` printed.
    const trust = page.getByTestId('run-trust');
    await trust.waitFor();
    const held = (await trust.textContent()) ?? '';
    expect(held).toContain(`bread-research.crew.json agents.0.tools.0.config.baseUrl: web_search sends $SERPER_API_KEY and its queries to ${search.host}`);
    await trust.getByTestId('trust-grant').click();
    await trust.getByTestId('trust-code').waitFor();
    const code = /enter this code in the browser: (\d{3}) (\d{3})/.exec(app.output());
    expect(code, app.output()).not.toBeNull();
    await trust.getByTestId('trust-code').fill(`${code![1]}${code![2]}`);
    await trust.getByTestId('trust-confirm').click();
    await trust.waitFor({ state: 'detached' });
    await page.getByTestId('run-start').click();
    await page.locator('[data-testid="run-status"][data-status="completed"]').waitFor({ timeout: 60_000 });

    // The fake Serper got the query with its key; the model was offered both tools (file_search without a path).
    const serper = search.seen.filter((r) => r.path === '/search');
    expect(serper).toHaveLength(1);
    expect(serper[0]!.headers['x-api-key']).toBe(FAKE_KEYS.serper);
    expect(serper[0]!.body).toMatchObject({ q: 'sourdough fermentation', num: 3 });
    const offered = (model.requests.find((r) => r.path === '/v1/chat/completions')!.body.tools as { function: { name: string; parameters: { properties: object } } }[]).map((t) => t.function);
    expect(offered.map((t) => t.name).sort()).toEqual(['file_search', 'web_search']);
    expect(Object.keys(offered.find((t) => t.name === 'file_search')!.parameters.properties)).toEqual(['query']);

    await page.getByTestId('tab-trace').click();
    const toolRows = page.locator('[data-testid="trace-row"][data-kind="tool"]');
    await expect.poll(() => toolRows.count()).toBe(2);
    const webRow = toolRows.filter({ hasText: 'web_search' });
    const fileRow = toolRows.filter({ hasText: 'file_search' });
    expect(await webRow.getAttribute('data-status')).toBe('done');
    expect(await fileRow.getAttribute('data-status')).toBe('done');

    await webRow.click();
    expect(await page.getByTestId('tool-args').textContent()).toContain('sourdough fermentation');
    const webResult = (await page.getByTestId('tool-result').textContent()) ?? '';
    expect(webResult).toContain('Sourdough bread - Wikipedia');
    expect(webResult).toContain('https://en.wikipedia.org/wiki/Sourdough');
    await shotOf(page.getByTestId('trace-panel'), 'trace-web-search');
    await page.getByTestId('tool-result').scrollIntoViewIfNeeded();
    await shotOf(page.getByTestId('span-detail'), 'trace-web-search-result');

    await fileRow.click();
    const fileResult = (await page.getByTestId('tool-result').textContent()) ?? '';
    expect(fileResult).toContain('seventy-two hours');
    expect(fileResult).toContain(PDF_PATH);
    await shotOf(page.getByTestId('trace-panel'), 'trace-file-search');
    await page.getByTestId('tool-result').scrollIntoViewIfNeeded();
    await shotOf(page.getByTestId('span-detail'), 'trace-file-search-result');
    await page.screenshot({ path: join(SHOTS, 'appdeck-run-done.png') });
    expect(session.errors).toEqual([]);
  });
});

describe('Settings → MCP servers', () => {
  it('adds the filesystem server from the catalogue to crewdeck.json, held until trusted', async () => {
    const { page } = session;
    await page.getByTestId('open-settings').click();
    const section = page.getByTestId('settings-mcp');
    await section.scrollIntoViewIfNeeded();
    await shotOf(section, 'settings-mcp-catalogue');
    await section.locator('[data-testid="mcp-entry"][data-entry="filesystem"]').getByTestId('mcp-entry-add').click();
    await section.locator('[data-testid="mcp-server"][data-server="filesystem"]').waitFor();
    await expect.poll(() => section.getByTestId('mcp-server-trust').textContent()).toBe('held until trusted');
    const settings = JSON.parse(readFileSync(join(workspace, 'crewdeck.json'), 'utf8'));
    expect(settings.mcp.servers.filesystem).toMatchObject({ transport: 'stdio', command: 'npx', args: ['-y', expect.stringMatching(/^@modelcontextprotocol\/server-filesystem@/), '.'] });
    // The model profile is kept, and the rest of what was trusted stays trusted.
    expect(settings.models.profiles.local.baseUrl).toBe(model.baseUrl);
    const held = page.getByTestId('settings-trust-held');
    await held.waitFor();
    expect(await held.textContent()).toContain('crewdeck.json mcp.servers.filesystem: runs: npx -y @modelcontextprotocol/server-filesystem@');
    await section.scrollIntoViewIfNeeded();
    await shotOf(section, 'settings-mcp-added');
    await section.getByTestId('mcp-show-trust').click();
    await expect.poll(() => held.evaluate((el) => el.getBoundingClientRect().top < window.innerHeight)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'appdeck-settings-page.png') });
    expect(session.errors).toEqual([]);
  });
});
