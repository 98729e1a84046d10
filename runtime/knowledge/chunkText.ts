/** Splitting source text into overlapping chunks for embedding. */

export const DEFAULT_CHUNK_SIZE = 4000;
export const DEFAULT_CHUNK_OVERLAP = 200;

export interface ChunkOptions {
  /** Characters per chunk at most. */
  size?: number;
  /** Characters repeated from the end of one chunk at the start of the next. */
  overlap?: number;
}

/** How far back from the limit a chunk may end to break at a nicer boundary (a fraction of the size). */
const LOOK_BACK = 0.2;

/**
 * Chunks of at most `size` characters; neighbours share about `overlap` characters. A chunk ends at
 * the best boundary near the limit: a paragraph break, else a line or sentence end, else whitespace,
 * else exactly at the limit. Chunks are trimmed; blank ones are dropped.
 */
export function chunkText(text: string, options: ChunkOptions = {}): string[] {
  const size = options.size ?? DEFAULT_CHUNK_SIZE;
  const overlap = options.overlap ?? DEFAULT_CHUNK_OVERLAP;
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk size must be a positive whole number, got ${size}`);
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= size) {
    throw new RangeError(`chunk overlap must be a whole number from 0 to ${size - 1}, got ${overlap}`);
  }
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) end = breakPoint(text, start, end, Math.max(start + 1, end - Math.floor(size * LOOK_BACK)));
    const chunk = text.slice(start, end).trim();
    if (chunk) chunks.push(chunk);
    if (end >= text.length) break;
    let next = Math.max(start + 1, end - overlap);
    // Start the next chunk at a word, not inside one.
    if (next > start + 1 && /\S/.test(text[next - 1] ?? '')) {
      const space = text.slice(next, end).search(/\s/);
      if (space >= 0) next += space + 1;
    }
    start = next;
  }
  return chunks;
}

/** The index to end a chunk at: the last good boundary in [min, limit], preferring stronger ones. */
function breakPoint(text: string, start: number, limit: number, min: number): number {
  const window = text.slice(start, limit);
  const from = min - start;
  for (const pattern of [/\n\s*\n/g, /[.!?。](?=\s)|\n/g, /\s/g]) {
    let best = -1;
    for (const m of window.matchAll(pattern)) {
      const after = m.index + m[0].length;
      if (after > from) best = after;
    }
    if (best > 0) return start + best;
  }
  return limit;
}
