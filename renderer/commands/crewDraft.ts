import type { z } from 'zod';
import type { AgentSchema, CrewDocumentInput, TaskSchema } from '../../shared/model/crew';

/**
 * A crew document as the editor holds it: the JSON as saved, which may not validate. Every field is
 * optional and readers check types before use; commands return new objects and never mutate.
 */
export type AgentDraft = Partial<z.input<typeof AgentSchema>>;
export type TaskDraft = Partial<z.input<typeof TaskSchema>>;
export type CrewDraft = Omit<Partial<CrewDocumentInput>, 'agents' | 'tasks'> & {
  agents?: AgentDraft[];
  tasks?: TaskDraft[];
};
export type Position = { x: number; y: number };

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `Array.isArray` that narrows to `unknown[]` (its own `any[]` lets anything through unchecked). */
export const isList = (value: unknown): value is unknown[] => Array.isArray(value);

/** The agents array, or an empty one when the document has none (or something else there). */
export function agentsOf(doc: CrewDraft): AgentDraft[] {
  return Array.isArray(doc.agents) ? doc.agents : [];
}

export function tasksOf(doc: CrewDraft): TaskDraft[] {
  return Array.isArray(doc.tasks) ? doc.tasks : [];
}

/** An entry of agents/tasks as an object (a broken entry such as `null` reads as empty). */
export function entry<T extends object>(value: T | undefined): Partial<T> {
  return isRecord(value) ? value : {};
}

export function stringField(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The `id` of an agent or task entry, when it is a string. */
export function idOf(value: unknown): string | undefined {
  return isRecord(value) ? stringField(value.id) : undefined;
}

/** The saved canvas positions of a document (a crew's or a flow's), the malformed ones left out. */
export function layoutOf(doc: { readonly layout?: unknown }): Record<string, Position> {
  const layout = doc.layout;
  if (!isRecord(layout)) return {};
  const out: Record<string, Position> = {};
  for (const [key, pos] of Object.entries(layout)) {
    if (isRecord(pos) && typeof pos.x === 'number' && typeof pos.y === 'number' && Number.isFinite(pos.x) && Number.isFinite(pos.y)) {
      out[key] = { x: pos.x, y: pos.y };
    }
  }
  return out;
}

export function managerOf(doc: CrewDraft): Record<string, unknown> | undefined {
  return isRecord(doc.manager) ? doc.manager : undefined;
}

export function isHierarchical(doc: CrewDraft): boolean {
  return doc.process === 'hierarchical';
}

/** The user agent acting as manager, when the crew is hierarchical and names one. */
export function managerAgentId(doc: CrewDraft): string | undefined {
  if (!isHierarchical(doc)) return undefined;
  return stringField(managerOf(doc)?.agentId);
}

export function replaceAt<T>(list: readonly T[], index: number, value: T): T[] {
  const out = list.slice();
  out[index] = value;
  return out;
}

/** A shallow copy of `object` with `patch` applied; `undefined` in the patch removes the key. */
export function withPatch<T extends object>(object: T, patch: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...(object as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete out[key];
    else out[key] = value;
  }
  return out as T;
}
