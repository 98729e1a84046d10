import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for what a downloaded workspace should not reach before trust (an intranet page, an admin
 * port): an HTTP server on 127.0.0.1 that answers `body` and records `METHOD url` of every request in
 * `seen`, so a test asserts nothing arrived.
 */
export interface IntranetServer {
  /** `http://127.0.0.1:PORT` */
  base: string;
  /** `127.0.0.1:PORT`, as an `allowedHosts` entry names it. */
  host: string;
  close(): Promise<void>;
}

export async function startIntranetServer(seen: string[], body: string): Promise<IntranetServer> {
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    host: new URL(base).host,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A crew whose scripted agent calls http_request once on `url` (its list: `allowedHosts`), then answers `done`. */
export function fetchingCrew(url: string, allowedHosts: string[]) {
  return {
    kind: 'crew',
    version: 1,
    id: 'fetch',
    name: 'Fetch',
    agents: [
      {
        id: 'a',
        role: 'Fetcher',
        goal: 'fetch',
        llm: {
          provider: 'scripted',
          model: 'fetcher',
          script: {
            rules: [
              { when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'http_request', arguments: { url } }] } },
              { when: { lastRole: 'tool' }, reply: 'done' },
            ],
          },
        },
        tools: [{ tool: 'http_request', config: { allowedHosts } }],
      },
    ],
    tasks: [{ id: 't', description: 'Fetch it', expectedOutput: 'the page', agentId: 'a' }],
  };
}
