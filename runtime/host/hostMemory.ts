import type { HostChannel, HostPush, HostRequestParsed, HostResponse } from '../../shared/host-api';
import { EmbedderMismatch, MemoryNotFound } from '../memory/memoryErrors';
import type { MemoryStore } from '../memory/memoryStore';
import type { MemoryRecord } from '../memory/types';
import { loadWorkspaceSettings } from '../document/loadDocument';
import { openWorkspaceMemory } from '../memory/workspaceMemory';
import { WorkspaceTrust } from '../trust/workspaceTrust';
import { HostConflict, HostNotFound } from './hostErrors';

type MemoryChannel = Extract<HostChannel, `memory.${string}`>;
type Req<C extends MemoryChannel> = HostRequestParsed<C>;
type Res<C extends MemoryChannel> = HostResponse<C>;

/** Why a content changed when someone edits it in the memory browser (kept in the record's history). */
export const EDITED_BY_HAND = 'edited by hand';

/**
 * The memory channels of the host API over the workspace's memory store (`.crewdeck/memory`), opened on
 * first use. The same store serves the runs the host starts (`store()`), so what a run writes is in the
 * memory browser at once. It is opened like the CLI and the runs open it: with the embedder `crewdeck.json`
 * names (read when the store opens) and the host's environment for its key. Every change through the host
 * pushes `memory.changed`.
 */
export class HostMemory {
  private opened: Promise<MemoryStore> | undefined;

  constructor(
    private readonly workspace: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly push: (push: HostPush) => void,
  ) {}

  /** The workspace's memory store, opened once; a failed open is tried again next time. */
  store(): Promise<MemoryStore> {
    if (!this.opened) {
      const opening = (async () => openWorkspaceMemory(this.workspace, { settings: loadWorkspaceSettings(this.workspace), env: this.env, trust: new WorkspaceTrust(this.workspace) }))();
      this.opened = opening;
      opening.catch(() => {
        if (this.opened === opening) this.opened = undefined;
      });
    }
    return this.opened;
  }

  /** The store for host requests: an unusable store is a conflict the person can act on (reset the memory folder). */
  private async use(): Promise<MemoryStore> {
    try {
      return await this.store();
    } catch (error) {
      if (error instanceof EmbedderMismatch) throw new HostConflict(error.message);
      throw error;
    }
  }

  private changed<T>(value: T): T {
    this.push({ kind: 'memory.changed' });
    return value;
  }

  async list({ scope, category, runId, includePrivate, limit, offset }: Req<'memory.list'>): Promise<Res<'memory.list'>> {
    const store = await this.use();
    let records = await store.list({ scope, categories: category ? [category] : undefined, includePrivate });
    if (runId !== undefined) records = records.filter((r) => r.source.runId === runId);
    return { records: records.slice(offset, offset + limit).map(toWire), total: records.length };
  }

  async search({ query, scope, categories, includePrivate, limit }: Req<'memory.search'>): Promise<Res<'memory.search'>> {
    const store = await this.use();
    const matches = await store.recall({ query, scope, categories, includePrivate, limit, touch: false });
    return { matches: matches.map((m) => ({ record: toWire(m.record), score: m.score, semantic: m.semantic, recency: m.recency, importance: m.importance, reasons: m.reasons })) };
  }

  async add({ content, scope, categories, importance, private: isPrivate }: Req<'memory.add'>): Promise<Res<'memory.add'>> {
    const store = await this.use();
    // add returns one record per memory given.
    const record = (await store.add([{ content, scope, categories, importance, private: isPrivate, source: { kind: 'manual' } }]))[0]!;
    return this.changed({ record: toWire(record) });
  }

  async update({ id, content, categories, importance, private: isPrivate }: Req<'memory.update'>): Promise<Res<'memory.update'>> {
    const store = await this.use();
    try {
      const record = await store.update(id, { content, categories, importance, private: isPrivate, reason: EDITED_BY_HAND });
      return this.changed({ record: toWire(record) });
    } catch (error) {
      if (error instanceof MemoryNotFound) throw new HostNotFound(error.message);
      throw error;
    }
  }

  async forget({ ids }: Req<'memory.forget'>): Promise<Res<'memory.forget'>> {
    const store = await this.use();
    const unique = [...new Set(ids)];
    const missing: string[] = [];
    for (const id of unique) if (!(await store.get(id))) missing.push(id);
    if (missing.length > 0) throw new HostNotFound(`no memory with id ${missing.map((id) => `"${id}"`).join(', ')}`);
    return this.changed({ removed: await store.forget({ ids: unique }) });
  }

  async reset({ scope }: Req<'memory.reset'>): Promise<Res<'memory.reset'>> {
    const store = await this.use();
    return this.changed({ removed: await store.forget({ scope }) });
  }

  async scopes(): Promise<Res<'memory.scopes'>> {
    const store = await this.use();
    const counts = new Map<string, number>();
    for (const r of await store.list({ includePrivate: true })) counts.set(r.scope, (counts.get(r.scope) ?? 0) + 1);
    return { scopes: [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([scope, count]) => ({ scope, count })) };
  }

  /** Closes the store if it was opened (after the runs using it have ended). */
  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    if (!opened) return;
    try {
      await (await opened).close();
    } catch {
      // It never opened: nothing to close.
    }
  }
}

/** A record for the wire: plain data, copied (the store's objects stay the store's). */
function toWire(record: MemoryRecord): Res<'memory.add'>['record'] {
  return {
    id: record.id,
    content: record.content,
    scope: record.scope,
    categories: [...record.categories],
    importance: record.importance,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    lastAccessedAt: record.lastAccessedAt,
    source: { ...record.source },
    private: record.private,
    metadata: { ...record.metadata },
    status: record.status,
    history: record.history.map((h) => ({ ...h })),
  };
}
