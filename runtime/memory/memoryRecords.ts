/** Memory records as the store makes them from new memories and changes them by patches. */
import { normaliseScope } from './memoryFilter';
import { clamp01 } from './recallScore';
import type { MemoryRecord, MemoryStatus, NewMemory } from './types';

export interface MemoryPatch {
  content?: string;
  categories?: string[];
  importance?: number;
  private?: boolean;
  metadata?: Record<string, unknown>;
  status?: MemoryStatus;
  /** Why it changed; kept in history when the content changes. */
  reason: string;
}

function clampImportance(value: number | undefined): number {
  return value === undefined ? 0.5 : clamp01(value);
}

function uniqueStrings(values: string[] | undefined): string[] {
  return [...new Set((values ?? []).map((v) => v.trim()).filter((v) => v.length > 0))];
}

/** Throws unless every memory has non-empty content. */
export function checkContent(memories: NewMemory[]): void {
  for (const m of memories) {
    if (typeof m.content !== 'string' || m.content.trim() === '') throw new Error('a memory needs non-empty content');
  }
}

/** The record of a new memory, made at `now`. */
export function newRecord(m: NewMemory, id: string, now: number): MemoryRecord {
  return {
    id,
    content: m.content,
    scope: normaliseScope(m.scope),
    categories: uniqueStrings(m.categories),
    importance: clampImportance(m.importance),
    createdAt: now,
    updatedAt: now,
    lastAccessedAt: now,
    source: { ...m.source },
    private: m.private ?? false,
    metadata: { ...(m.metadata ?? {}) },
    status: m.status ?? 'active',
    history: [],
  };
}

/** `current` changed by `patch` at `now`; when `contentChanged`, the earlier content goes onto `history`. */
export function patchedRecord(current: MemoryRecord, patch: MemoryPatch, contentChanged: boolean, now: number): MemoryRecord {
  const history = contentChanged
    ? [...current.history, { content: current.content, updatedAt: current.updatedAt, reason: patch.reason }]
    : current.history;
  return {
    ...current,
    content: contentChanged && patch.content !== undefined ? patch.content : current.content,
    categories: patch.categories !== undefined ? uniqueStrings(patch.categories) : current.categories,
    importance: patch.importance !== undefined ? clamp01(patch.importance) : current.importance,
    private: patch.private ?? current.private,
    metadata: patch.metadata !== undefined ? { ...patch.metadata } : current.metadata,
    status: patch.status ?? current.status,
    updatedAt: now,
    history,
  };
}
