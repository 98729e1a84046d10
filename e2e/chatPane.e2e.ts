import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, serve, tempWorkspace, type ServedApp, type Session } from './support/app';
import { seriousViolations } from './support/axe';

/**
 * The chat pane in a real Chromium over the real `crewdeck serve` (issue 32): from an agent node, the
 * Analyst answers with a calculator call shown under its reply and in the reply's own trace; the
 * conversation is kept as a test case, appears in Tests, and a crew test scores it.
 */
const crew = {
  kind: 'crew',
  version: 1,
  id: 'numbers',
  name: 'Numbers',
  agents: [
    {
      id: 'analyst',
      role: 'Analyst',
      goal: 'Compute exactly',
      tools: [{ tool: 'calculator' }],
      llm: {
        provider: 'scripted',
        model: 'analyst-demo',
        script: {
          rules: [
            { when: { system: 'kept as the right one' }, reply: JSON.stringify({ score: 9, reason: 'Same number.' }) },
            { when: { system: 'You score how well an answer' }, reply: JSON.stringify({ score: 7, reason: 'Fine.' }) },
            { when: { system: 'You are Analyst.', lastRole: 'user', last: 'latest message' }, reply: { content: '', toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }] } },
            { when: { system: 'You are Analyst.', lastRole: 'tool' }, reply: 'Six times seven is 42.' },
          ],
          default: 'A number.',
        },
      },
    },
  ],
  tasks: [{ id: 'work', description: 'Work out 6 times 7.', expectedOutput: 'A number', agentId: 'analyst' }],
};

let app: ServedApp;
let workspace: string;
let session: Session;

beforeAll(async () => {
  workspace = tempWorkspace('chat');
  writeFileSync(join(workspace, 'numbers.crew.json'), JSON.stringify(crew, null, 2));
  app = await serve(workspace);
  session = await openBrowser(app.url, { width: 1440, height: 900 });
});

afterAll(async () => {
  await session?.close();
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('the chat pane', () => {
  it('answers with a tool call visible under the reply and in its trace', async () => {
    const { page } = session;
    await page.locator('[data-testid="document-item"][data-path="numbers.crew.json"]').click();
    await page.getByTestId('crew-node-agent:analyst').click();
    await page.getByTestId('inspector-chat').click();
    const pane = page.getByTestId('chat-panel');
    await pane.waitFor();
    expect(await pane.getByTestId('chat-agent').inputValue()).toContain('analyst');
    await pane.getByTestId('chat-input').fill('What is 6 times 7?');
    await pane.getByTestId('chat-input').press('Enter');
    const reply = pane.locator('[data-testid="chat-message"][data-role="agent"][data-status="done"]');
    await reply.waitFor({ timeout: 30_000 });
    expect(await reply.getByTestId('chat-reply').textContent()).toBe('Six times seven is 42.');
    const call = reply.getByTestId('chat-tool-call');
    expect(await call.textContent()).toContain('calculator("expression":"6 * 7")');
    expect(await call.textContent()).toContain('→ 42');
    await session.shot('chat-pane-reply');
    expect(await seriousViolations(page)).toEqual([]);

    await reply.getByTestId('chat-open-trace').click();
    const tool = page.locator('[data-testid="trace-row"][data-kind="tool"]');
    await tool.first().waitFor();
    expect(await tool.first().textContent()).toContain('calculator');
    await session.shot('chat-reply-trace');
    expect(session.errors).toEqual([]);
  });

  it('a reload of the page keeps the conversation; a kept one appears in Tests, and a test scores it', async () => {
    const { page } = session;
    await page.reload();
    await page.locator('[data-testid="document-item"][data-path="numbers.crew.json"]').click();
    await page.getByTestId('tab-chat').click();
    const pane = page.getByTestId('chat-panel');
    const reply = pane.locator('[data-testid="chat-message"][data-role="agent"][data-status="done"]');
    await reply.waitFor();
    expect(await reply.getByTestId('chat-reply').textContent()).toBe('Six times seven is 42.');
    expect(await reply.getByTestId('chat-tool-call').textContent()).toContain('→ 42');
    await pane.getByTestId('chat-keep').click();
    await pane.getByTestId('chat-keep-name').fill('Six times seven');
    await pane.getByTestId('chat-keep-save').click();
    await pane.getByTestId('chat-kept').waitFor();

    await page.getByTestId('view-tests').click();
    const kept = page.locator('[data-testid="test-conversation"][data-conversation-id="six-times-seven"]');
    await kept.waitFor();
    expect(await kept.textContent()).toContain('Analyst · 2 turns');
    await page.getByTestId('test-crew').click();
    const dialog = page.getByTestId('test-dialog');
    await dialog.getByTestId('test-iterations').fill('1');
    await dialog.getByTestId('test-start').click();
    await page.locator('[data-testid="test-status"][data-status="completed"]').waitFor({ timeout: 60_000 });
    const row = page.locator('[data-testid="test-score-row"][data-task-id="conversation:six-times-seven"]');
    await row.waitFor();
    expect(await row.getByTestId('test-average').textContent()).toBe('9');
    await session.shot('tests-kept-conversation');
    expect(await seriousViolations(page)).toEqual([]);
    expect(session.errors).toEqual([]);
  });
});
