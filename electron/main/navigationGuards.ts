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

interface GuardedContents {
  on(event: 'will-navigate', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/**
 * Every webContents stays on the app's page: navigation away is cancelled, new windows are denied,
 * webviews are refused, and http(s) links open in the system browser instead.
 */
export function guardContents(contents: GuardedContents, appUrl: () => string, openExternal: (url: string) => void): void {
  contents.on('will-navigate', (event, url) => {
    if (sameDocument(url, appUrl())) return;
    event.preventDefault();
    const external = externalUrl(url);
    if (external) openExternal(external);
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const external = externalUrl(url);
    if (external) openExternal(external);
    return { action: 'deny' };
  });
}
