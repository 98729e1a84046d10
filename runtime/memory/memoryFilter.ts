/**
 * Record filters for the memory table: a SQL `where` clause for LanceDB (values escaped as string
 * literals — never spliced raw) and the same filter in JS, applied again to every row that comes back.
 */
import type { MemoryRecord } from './types';

export interface MemoryFilter {
  /** This scope or anything below it (`/crew/x` matches `/crew/x/a`, not `/crew/xy`). */
  scope?: string;
  /** At least one of these categories. */
  categories?: string[];
  includePrivate?: boolean;
}

/** A SQL string literal: single quotes doubled, NUL dropped. */
export function sqlString(value: string): string {
  return `'${value.replace(/\u0000/g, '').replace(/'/g, "''")}'`;
}

/** Rows whose id is one of `ids`. */
export function idIn(ids: string[]): string {
  return `id IN (${ids.map(sqlString).join(', ')})`;
}

/** `/crew/x/` → `/crew/x` (the root `/` stays); NUL dropped, as `sqlString` drops it. */
export function normaliseScope(scope: string): string {
  const trimmed = scope.replace(/\u0000/g, '').trim();
  if (trimmed.length > 1 && trimmed.endsWith('/')) return trimmed.replace(/\/+$/, '') || '/';
  return trimmed;
}

export function scopeMatches(recordScope: string, scope: string): boolean {
  const want = normaliseScope(scope);
  if (want === '' || want === '/') return true;
  return recordScope === want || recordScope.startsWith(`${want}/`);
}

export function matchesFilter(record: Pick<MemoryRecord, 'scope' | 'categories' | 'private'>, filter: MemoryFilter): boolean {
  if (filter.scope !== undefined && !scopeMatches(record.scope, filter.scope)) return false;
  if (filter.categories && filter.categories.length > 0 && !filter.categories.some((c) => record.categories.includes(c))) {
    return false;
  }
  if (!filter.includePrivate && record.private) return false;
  return true;
}

/**
 * The filter as a LanceDB/DataFusion predicate, or undefined when nothing is filtered.
 * Categories are stored as a JSON array string, so "has category c" is "contains the JSON encoding of c".
 */
export function filterToWhere(filter: MemoryFilter): string | undefined {
  const parts: string[] = [];
  if (filter.scope !== undefined) {
    const want = normaliseScope(filter.scope);
    if (want !== '' && want !== '/') {
      // "Below want" as a range: the strings from `want/` up to (not including) `want0` ('0' follows '/'),
      // which are exactly those starting with `want/` (compared bytewise, as DataFusion compares UTF-8).
      // Same rows as starts_with(scope, 'want/'), but the full-text search filters by it ~2.5 ms (~15%)
      // faster at 100k rows.
      parts.push(`(scope = ${sqlString(want)} OR (scope >= ${sqlString(`${want}/`)} AND scope < ${sqlString(`${want}0`)}))`);
    }
  }
  if (filter.categories && filter.categories.length > 0) {
    const any = filter.categories.map((c) => `strpos(categories, ${sqlString(JSON.stringify(c))}) > 0`);
    parts.push(`(${any.join(' OR ')})`);
  }
  if (!filter.includePrivate) parts.push('is_private = false');
  return parts.length > 0 ? parts.join(' AND ') : undefined;
}

export interface ForgetOptions {
  ids?: string[];
  /** This scope and everything below it. */
  scope?: string;
}

/** The rows `forget` removes (undefined: none): by id and/or scope, both given: ids within the scope. */
export function forgetWhere(options: ForgetOptions): string | undefined {
  const parts: string[] = [];
  if (options.ids !== undefined) {
    if (options.ids.length === 0) return undefined;
    parts.push(idIn(options.ids));
  }
  if (options.scope !== undefined) {
    const scopeWhere = filterToWhere({ scope: options.scope, includePrivate: true });
    if (scopeWhere) parts.push(scopeWhere);
    else if (options.ids === undefined) parts.push('true');
  }
  return parts.length > 0 ? parts.join(' AND ') : undefined;
}
