/**
 * The window's Content-Security-Policy, sent as a header on top of the meta tag in
 * renderer/index.html. Both apply (the stricter wins); the header drops the meta tag's
 * `ws://127.0.0.1:*`, which only browser mode needs, and adds what a meta tag cannot carry.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/** `directive → sources`, for comparing policies. */
export function parsePolicy(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

interface HeadersDetails {
  resourceType: string;
  responseHeaders?: Record<string, string[]>;
}
type HeadersCallback = (response: { responseHeaders?: Record<string, string[]> }) => void;

/** Adds the policy to every document the session loads (main frame and frames). */
export function installContentSecurityPolicy(session: {
  webRequest: { onHeadersReceived(listener: (details: HeadersDetails, callback: HeadersCallback) => void): void };
}): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    if (details.resourceType !== 'mainFrame' && details.resourceType !== 'subFrame') {
      callback({});
      return;
    }
    const headers = { ...(details.responseHeaders ?? {}) };
    for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-security-policy') delete headers[name];
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
}
