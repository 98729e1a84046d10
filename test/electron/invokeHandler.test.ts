import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FOREIGN_SENDER_REFUSAL, fromAppWindow, handleInvoke, type InvokeEvent } from '../../electron/main/invokeHandler';

const appUrl = pathToFileURL('/opt/Crewdeck/resources/app/dist/renderer/index.html').href;

/** A stand-in for ipcMain: records the handler main registers, and what reached dispatch. */
function fakeIpcMain() {
  const handlers = new Map<string, (event: InvokeEvent, ...args: unknown[]) => unknown>();
  const dispatched: { channel: string; request: unknown }[] = [];
  handleInvoke({ handle: (channel, listener) => void handlers.set(channel, listener) }, appUrl, async (channel, request) => {
    dispatched.push({ channel, request });
    return { ok: true, response: { dispatched: channel } };
  });
  const invoke = (event: InvokeEvent, channel: unknown, request: unknown) => {
    const handler = handlers.get('crewdeck:invoke');
    if (!handler) throw new Error('crewdeck:invoke is not handled');
    return Promise.resolve(handler(event, channel, request));
  };
  return { handlers, dispatched, invoke };
}

describe('handleInvoke (main checks who sent a request before anything else)', () => {
  it('registers the one invoke channel', () => {
    expect([...fakeIpcMain().handlers.keys()]).toEqual(['crewdeck:invoke']);
  });

  it('passes a well-formed request from the app’s page on, parsed', async () => {
    const ipc = fakeIpcMain();
    for (const url of [appUrl, `${appUrl}#/runs`, `${appUrl}?view=flow`]) {
      expect(await ipc.invoke({ senderFrame: { url } }, 'workspace.info', {}), url).toEqual({ ok: true, response: { dispatched: 'workspace.info' } });
    }
    expect(await ipc.invoke({ senderFrame: { url: appUrl } }, 'runs.list', {})).toMatchObject({ ok: true });
    expect(ipc.dispatched.at(-1)).toEqual({ channel: 'runs.list', request: { limit: 200, offset: 0 } });
  });

  it('refuses a valid request from any other frame, or from no frame, without dispatching it', async () => {
    const ipc = fakeIpcMain();
    const foreign: InvokeEvent[] = [
      { senderFrame: { url: 'https://evil.example/' } },
      { senderFrame: { url: appUrl.replace('index.html', 'other.html') } },
      { senderFrame: { url: pathToFileURL('/tmp/index.html').href } },
      { senderFrame: { url: 'about:blank' } },
      { senderFrame: { url: 'not a url' } },
      { senderFrame: null },
      {},
    ];
    for (const event of foreign) {
      expect(fromAppWindow(event, appUrl), JSON.stringify(event)).toBe(false);
      expect(await ipc.invoke(event, 'workspace.info', {}), JSON.stringify(event)).toEqual(FOREIGN_SENDER_REFUSAL);
      expect(await ipc.invoke(event, 'secrets.set', { name: 'OPENAI_API_KEY', value: 'sk-1' })).toMatchObject({ ok: false, error: { message: expect.stringContaining('refused') } });
    }
    expect(ipc.dispatched).toEqual([]);
  });

  it('refuses unknown channels and invalid requests from the app’s page without dispatching them', async () => {
    const ipc = fakeIpcMain();
    const event = { senderFrame: { url: appUrl } };
    expect(await ipc.invoke(event, 'child_process.exec', {})).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    expect(await ipc.invoke(event, 'documents.read', { path: '../../etc/passwd.crew.json' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(ipc.dispatched).toEqual([]);
  });
});
