/** Links the app may hand to the system browser: http(s) only, never file:, javascript: or custom schemes. */
export function externalUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** Permissions the renderer may use, and only on the app's own page: the clipboard (canvas copy/paste). */
const ALLOWED_PERMISSIONS = new Set(['clipboard-read', 'clipboard-sanitized-write']);

export function isPermissionAllowed(permission: string, requestingUrl: string, appUrl: string): boolean {
  return ALLOWED_PERMISSIONS.has(permission) && sameDocument(requestingUrl, appUrl);
}

/** Same file (or page), ignoring the query and the hash. */
export function sameDocument(url: string, appUrl: string): boolean {
  try {
    const a = new URL(url);
    const b = new URL(appUrl);
    return a.protocol === b.protocol && a.host === b.host && a.pathname === b.pathname;
  } catch {
    return false;
  }
}

/** What a navigation event hands its listener: the target URL, and whether it is the window's own frame. */
interface NavigationDetails {
  url: string;
  isMainFrame: boolean;
  preventDefault(): void;
}

interface GuardedContents {
  on(event: 'will-navigate', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  on(event: 'will-redirect', listener: (details: NavigationDetails) => void): unknown;
  on(event: 'will-frame-navigate', listener: (details: NavigationDetails) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/**
 * Hands a link to the system browser only when it is http(s): every caller of `shell.openExternal`
 * goes through this, so a `file:`, `smb:` or custom-scheme URL from the renderer or a document is never opened.
 */
export function openExternalSafely(open: (url: string) => Promise<void>): (url: string) => void {
  return (url) => {
    const external = externalUrl(url);
    if (external) void open(external).catch(() => undefined);
  };
}

/**
 * Every webContents stays on the app's page: navigation away is cancelled (also when a server
 * redirects, and in any frame), new windows are denied, webviews are refused, and http(s) links open in
 * the system browser instead.
 */
export function guardContents(contents: GuardedContents, appUrl: () => string, openExternal: (url: string) => void): void {
  contents.on('will-navigate', (event, url) => {
    if (sameDocument(url, appUrl())) return;
    event.preventDefault();
    const external = externalUrl(url);
    if (external) openExternal(external);
  });
  // A redirect is not the user's choice of link: cancel it and open nothing.
  contents.on('will-redirect', (details) => {
    if (!sameDocument(details.url, appUrl())) details.preventDefault();
  });
  // Frames inside the page (the app has none of its own) may not load anything but the app page;
  // the main frame is left to will-navigate, which also hands http(s) links to the browser.
  contents.on('will-frame-navigate', (details) => {
    if (details.isMainFrame) return;
    if (details.url === 'about:blank' || details.url === 'about:srcdoc' || sameDocument(details.url, appUrl())) return;
    details.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const external = externalUrl(url);
    if (external) openExternal(external);
    return { action: 'deny' };
  });
}
