import type { HostApi, HostChannel, HostPush, HostRequest, HostResponse } from '../../../shared/host-api';
import { parseCrewDocument } from '../../../shared/model/parse';
import { HostCallError } from '../../../renderer/host/hostError';
import { checkedRequest, checkedResponse } from '../host/hostContract';

/**
 * A host whose workspace is a map of file texts: `documents.read` parses and validates like the real
 * one, `documents.save` writes JSON text. Saves can be made to fail or to wait.
 */
export class MemoryHost implements HostApi {
  readonly files = new Map<string, string>();
  readonly saves: { path: string; document: unknown }[] = [];
  /** Every documents.save request, failed ones included. */
  saveAttempts = 0;
  failSaves?: string;
  /** Every call, in order (channel and path), to check what happened before what. */
  readonly log: string[] = [];
  /** While set, renames wait for it (to edit during a rename). */
  renameGate?: Promise<void>;
  profiles: Record<string, unknown> = {};
  /** Problems only the host finds (like JSON Schemas that do not compile), added to every answer. */
  hostOnly: { path: string; message: string }[] = [];

  /** Requests and responses are checked against the host API's schemas (test/renderer/host/hostContract.ts). */
  async invoke<C extends HostChannel>(channel: C, request: HostRequest<C>): Promise<HostResponse<C>> {
    checkedRequest(channel, request);
    return checkedResponse(channel, await this.answer(channel, request));
  }

  private async answer<C extends HostChannel>(channel: C, request: HostRequest<C>): Promise<HostResponse<C>> {
    const req = request as Record<string, unknown>;
    this.log.push(`${channel} ${String(req.path ?? '')}`.trim());
    switch (channel) {
      case 'documents.read': {
        const path = req.path as string;
        const text = this.files.get(path);
        if (text === undefined) throw new HostCallError(channel, { code: 'not_found', message: `no document ${path}` });
        let document: unknown = null;
        try {
          document = JSON.parse(text);
        } catch (e) {
          return { path, document: null, text, problems: [{ path: '(document)', message: `invalid JSON: ${(e as Error).message}` }], modifiedAt: 1 } as HostResponse<C>;
        }
        const parsed = parseCrewDocument(document);
        return { path, document, text, problems: [...(parsed.ok ? [] : parsed.problems), ...this.hostOnly], modifiedAt: 1 } as HostResponse<C>;
      }
      case 'documents.save': {
        this.saveAttempts += 1;
        if (this.failSaves) throw new HostCallError(channel, { code: 'internal', message: this.failSaves });
        const path = req.path as string;
        this.saves.push({ path, document: req.document });
        this.files.set(path, `${JSON.stringify(req.document, null, 2)}\n`);
        const parsed = parseCrewDocument(req.document);
        return { path, problems: [...(parsed.ok ? [] : parsed.problems), ...this.hostOnly], modifiedAt: 2 } as HostResponse<C>;
      }
      case 'documents.rename': {
        await this.renameGate;
        const from = req.path as string;
        const to = req.newPath as string;
        const text = this.files.get(from);
        if (text === undefined) throw new HostCallError(channel, { code: 'not_found', message: `no document ${from}` });
        if (this.files.has(to)) throw new HostCallError(channel, { code: 'conflict', message: `${to} already exists` });
        this.files.delete(from);
        this.files.set(to, text);
        return { path: to } as HostResponse<C>;
      }
      case 'documents.delete': {
        const path = req.path as string;
        if (!this.files.delete(path)) throw new HostCallError(channel, { code: 'not_found', message: `no document ${path}` });
        return {} as HostResponse<C>;
      }
      case 'documents.list':
        return {
          documents: [...this.files.keys()].sort().map((path) => ({ path, kind: path.endsWith('.flow.json') ? 'flow' : 'crew', name: path, problemCount: 0, modifiedAt: 1 })),
        } as HostResponse<C>;
      case 'workspace.info':
        return { path: '/workspace', name: 'workspace', transport: 'websocket', version: 'test' } as HostResponse<C>;
      case 'runs.list':
        return { runs: [] } as unknown as HostResponse<C>;
      case 'human.pending':
        return { requests: [] } as unknown as HostResponse<C>;
      case 'settings.get':
        return { settings: { version: 1, models: { profiles: this.profiles } }, problems: [], keys: [] } as unknown as HostResponse<C>;
      default:
        throw new HostCallError(channel, { code: 'unknown_channel', message: `not in the memory host: ${channel}` });
    }
  }

  subscribe(listener: (push: HostPush) => void): () => void {
    void listener;
    return () => undefined;
  }

  saved(path: string): unknown {
    const text = this.files.get(path);
    return text === undefined ? undefined : JSON.parse(text);
  }
}
