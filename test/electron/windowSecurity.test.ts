import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, installContentSecurityPolicy, parsePolicy } from '../../electron/main/contentSecurityPolicy';
import { externalUrl, guardContents, isPermissionAllowed, openExternalSafely } from '../../electron/main/navigationGuards';
import { repoRoot } from './support/nodeRuntimeChild';

const appUrl = 'file:///opt/Crewdeck/resources/app.asar/dist/renderer/index.html';

describe('Content-Security-Policy header', () => {
  it('is at least as strict as the meta tag in renderer/index.html, directive by directive', () => {
    const html = readFileSync(join(repoRoot, 'renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBeTruthy();
    const page = parsePolicy(meta as string);
    const header = parsePolicy(CONTENT_SECURITY_POLICY);
    for (const [directive, sources] of page) {
      const ours = header.get(directive) ?? header.get('default-src');
      expect(ours, directive).toBeDefined();
      for (const source of ours as string[]) expect(sources, `${directive} ${source}`).toContain(source);
    }
    expect(header.get('script-src')).toEqual(["'self'"]);
    expect(header.get('connect-src')).toEqual(["'self'"]);
    expect(header.get('object-src')).toEqual(["'none'"]);
  });

  it('is added to documents and replaces any policy the response had, leaving subresources alone', () => {
    let listener: ((details: { resourceType: string; responseHeaders?: Record<string, string[]> }, cb: (r: { responseHeaders?: Record<string, string[]> }) => void) => void) | undefined;
    installContentSecurityPolicy({ webRequest: { onHeadersReceived: (l) => (listener = l) } });
    const answers: Array<{ responseHeaders?: Record<string, string[]> }> = [];
    listener?.({ resourceType: 'mainFrame', responseHeaders: { 'content-security-policy': ['default-src *'], 'X-Other': ['1'] } }, (r) => answers.push(r));
    listener?.({ resourceType: 'script', responseHeaders: {} }, (r) => answers.push(r));
    expect(answers[0]!.responseHeaders).toEqual({ 'X-Other': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
    expect(answers[1]).toEqual({});
  });
});

describe('navigation and windows', () => {
  it('opens only http(s) links outside', () => {
    expect(externalUrl('https://docs.crewai.com/concepts')).toBe('https://docs.crewai.com/concepts');
    expect(externalUrl('http://localhost:3000/')).toBe('http://localhost:3000/');
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'vscode://x', 'not a url', '']) expect(externalUrl(url), url).toBeUndefined();
  });

  it('cancels navigation away from the app page, denies new windows and webviews', () => {
    const handlers: Record<string, (event: { preventDefault(): void }, url?: string) => void> = {};
    let openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
    const opened: string[] = [];
    guardContents(
      {
        on: (event: string, listener: (event: { preventDefault(): void }, url?: string) => void) => (handlers[event] = listener),
        setWindowOpenHandler: (handler: (details: { url: string }) => { action: 'deny' }) => (openHandler = handler),
      } as never,
      () => appUrl,
      (url) => opened.push(url),
    );
    const navigate = (url: string) => {
      let prevented = false;
      handlers['will-navigate']!({ preventDefault: () => (prevented = true) }, url);
      return prevented;
    };
    expect(navigate(`${appUrl}#/runs`)).toBe(false);
    expect(navigate('https://example.com/')).toBe(true);
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(opened).toEqual(['https://example.com/']);
    expect(openHandler?.({ url: 'https://github.com/' })).toEqual({ action: 'deny' });
    expect(openHandler?.({ url: 'file:///etc/hosts' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://example.com/', 'https://github.com/']);
    let webviewPrevented = false;
    handlers['will-attach-webview']!({ preventDefault: () => (webviewPrevented = true) });
    expect(webviewPrevented).toBe(true);
  });

  it('cancels redirects away from the app page and frame navigations inside it, opening nothing', () => {
    const handlers: Record<string, (details: { url: string; isMainFrame: boolean; preventDefault(): void }) => void> = {};
    const opened: string[] = [];
    guardContents(
      { on: (event: string, listener: never) => (handlers[event] = listener), setWindowOpenHandler: () => undefined } as never,
      () => appUrl,
      (url) => opened.push(url),
    );
    const fire = (event: 'will-redirect' | 'will-frame-navigate', url: string, isMainFrame = true) => {
      let prevented = false;
      handlers[event]!({ url, isMainFrame, preventDefault: () => (prevented = true) });
      return prevented;
    };
    expect(fire('will-redirect', `${appUrl}#/flows`)).toBe(false);
    expect(fire('will-redirect', 'https://evil.example/phish')).toBe(true);
    expect(fire('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(fire('will-redirect', 'http://127.0.0.1:9/', false)).toBe(true);
    expect(fire('will-frame-navigate', 'https://evil.example/', false)).toBe(true);
    expect(fire('will-frame-navigate', 'file:///etc/passwd', false)).toBe(true);
    expect(fire('will-frame-navigate', 'javascript:alert(1)', false)).toBe(true);
    expect(fire('will-frame-navigate', 'about:blank', false)).toBe(false);
    expect(fire('will-frame-navigate', `${appUrl}?frame=1`, false)).toBe(false);
    // The main frame's navigations are will-navigate's (which opens http(s) links outside).
    expect(fire('will-frame-navigate', 'https://example.com/', true)).toBe(false);
    expect(opened).toEqual([]);
  });

  it('hands only http(s) URLs to shell.openExternal', async () => {
    const opened: string[] = [];
    const open = openExternalSafely(async (url) => {
      opened.push(url);
    });
    for (const url of ['https://github.com/crewdeck', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'ms-settings:', 'http://localhost:3000/x', 'nonsense']) open(url);
    await Promise.resolve();
    expect(opened).toEqual(['https://github.com/crewdeck', 'http://localhost:3000/x']);
    // A failing shell call is swallowed rather than crashing the main process.
    expect(() => openExternalSafely(() => Promise.reject(new Error('no browser')))('https://example.com/')).not.toThrow();
  });

  it('grants only clipboard permissions, and only to the app page', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', appUrl, appUrl)).toBe(true);
    expect(isPermissionAllowed('clipboard-read', `${appUrl}?x=1`, appUrl)).toBe(true);
    expect(isPermissionAllowed('media', appUrl, appUrl)).toBe(false);
    expect(isPermissionAllowed('notifications', appUrl, appUrl)).toBe(false);
    expect(isPermissionAllowed('clipboard-read', 'https://evil.example/', appUrl)).toBe(false);
    expect(isPermissionAllowed('clipboard-read', 'file:///tmp/other.html', appUrl)).toBe(false);
  });
});
