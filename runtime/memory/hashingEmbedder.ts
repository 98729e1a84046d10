import { ModelCallAborted } from '../llm/errors';
import type { Embedder } from './types';

/**
 * The offline default embedder (SPEC §5): deterministic feature hashing of lexical features, no model.
 *
 * Text is normalised (Unicode NFKC, lower-cased, apostrophes dropped, every other non-letter/non-digit
 * character treated as a separator) and split into words. Three feature families are hashed into one
 * vector of `dimensions` buckets with signed hashing (FNV-1a 32-bit over UTF-8, with murmur3's finaliser
 * for avalanche; the sign comes from a second mix of the same hash):
 *
 * - word unigrams,
 * - word bigrams (so word order counts a little: "dog bites man" ≠ "man bites dog"),
 * - character 3–5-grams of each word padded as `<word>` (so "panel" and "panels" stay close).
 *
 * Each feature weighs `1 + ln(tf)` (sublinear term frequency). Each family's sub-vector is L2-normalised
 * and scaled by its family weight (words weigh most), so the balance between families does not drift with
 * text length; the sum is L2-normalised. Because the families land on (pseudo-randomly) independent
 * buckets, cosine similarity ≈ Σ wf²·cos_f / Σ wf² over the families present.
 *
 * **Empty text** (or text with no letters or digits) has no features and embeds as the **zero vector**
 * (all zeros, not unit length): its cosine similarity with anything is 0 (or undefined, 0/0), so callers
 * should treat it as "no semantic signal" rather than search with it.
 */

export interface HashingFeatureWeights {
  word: number;
  bigram: number;
  char: number;
}

export interface HashingEmbedderOptions {
  /** Number of hash buckets (vector length). Default 384. */
  dimensions?: number;
  /** Family weights; defaults `{ word: 1, bigram: 0.5, char: 0.7 }`. Changing them changes `id`. */
  weights?: Partial<HashingFeatureWeights>;
}

export const DEFAULT_HASHING_DIMENSIONS = 384;
export const DEFAULT_HASHING_WEIGHTS: Readonly<HashingFeatureWeights> = { word: 1, bigram: 0.5, char: 0.7 };
export const CHAR_NGRAM_MIN = 3;
export const CHAR_NGRAM_MAX = 5;

export class HashingEmbedder implements Embedder {
  /** `hashing-v1-<dimensions>`, plus `-w<word>,<bigram>,<char>` when the weights are not the defaults. */
  readonly id: string;
  readonly dimensions: number;
  private readonly weights: HashingFeatureWeights;

  constructor(options: HashingEmbedderOptions = {}) {
    const dimensions = options.dimensions ?? DEFAULT_HASHING_DIMENSIONS;
    if (!Number.isInteger(dimensions) || dimensions < 1) {
      throw new RangeError(`HashingEmbedder dimensions must be a positive integer, got ${dimensions}`);
    }
    const weights = { ...DEFAULT_HASHING_WEIGHTS, ...options.weights };
    for (const [family, weight] of Object.entries(weights)) {
      if (!Number.isFinite(weight) || weight < 0) {
        throw new RangeError(`HashingEmbedder weight "${family}" must be a finite number ≥ 0, got ${weight}`);
      }
    }
    this.dimensions = dimensions;
    this.weights = weights;
    const isDefault =
      weights.word === DEFAULT_HASHING_WEIGHTS.word &&
      weights.bigram === DEFAULT_HASHING_WEIGHTS.bigram &&
      weights.char === DEFAULT_HASHING_WEIGHTS.char;
    this.id = `hashing-v1-${dimensions}` + (isDefault ? '' : `-w${weights.word},${weights.bigram},${weights.char}`);
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const vectors: number[][] = [];
    for (const text of texts) {
      if (signal?.aborted) throw new ModelCallAborted('embedding aborted');
      vectors.push(this.embedSync(text));
    }
    return vectors;
  }

  /** The vector of one text (unit length; the zero vector for text without letters or digits). */
  embedSync(text: string): number[] {
    const words = hashingWords(text);
    const result = new Float64Array(this.dimensions);
    if (words.length === 0) return Array.from(result);

    const bigrams: string[] = [];
    for (let i = 1; i < words.length; i++) bigrams.push(`${words[i - 1]} ${words[i]}`);
    const grams: string[] = [];
    for (const word of words) pushCharNgrams(`<${word}>`, grams);

    this.addFamily(result, 'w\u0000', words, this.weights.word);
    this.addFamily(result, 'b\u0000', bigrams, this.weights.bigram);
    this.addFamily(result, 'c\u0000', grams, this.weights.char);
    return Array.from(normalize(result));
  }

  /** Adds one family's features, L2-normalised and scaled by the family weight, into `target`. */
  private addFamily(target: Float64Array, prefix: string, features: string[], weight: number): void {
    if (features.length === 0 || weight === 0) return;
    const counts = new Map<string, number>();
    for (const feature of features) counts.set(feature, (counts.get(feature) ?? 0) + 1);
    const family = new Float64Array(this.dimensions);
    const prefixState = fnv1a32Continue(FNV_OFFSET, prefix); // hash(prefix + feature), without the concatenation
    for (const [feature, tf] of counts) {
      const hash = fnv1a32Continue(prefixState, feature) >>> 0;
      const mixed = fmix32(hash);
      const bucket = mixed % this.dimensions;
      const sign = fmix32(hash ^ 0x9e3779b9) & 1 ? 1 : -1;
      family[bucket]! += sign * (1 + Math.log(tf)); // bucket < this.dimensions
    }
    const norm = l2(family);
    if (norm === 0) return; // every feature cancelled out in its bucket — vanishingly rare
    const scale = weight / norm;
    for (let i = 0; i < family.length; i++) target[i]! += family[i]! * scale; // both this.dimensions long
  }
}

/**
 * The words the hashing embedder sees: NFKC-normalised, lower-cased, apostrophes removed ("don't" →
 * "dont"), split on every character that is not a letter, combining mark or digit.
 */
export function hashingWords(text: string): string[] {
  const normalized = text.normalize('NFKC').toLowerCase().replace(/['’ʼ`]/g, '');
  return normalized.match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
}

/** Character n-grams (by code point, so surrogate pairs stay whole) of a padded word. */
function pushCharNgrams(padded: string, out: string[]): void {
  if (!SURROGATE.test(padded)) {
    // No surrogate pairs: code points are UTF-16 units, so substrings are the same n-grams, cheaper.
    for (let n = CHAR_NGRAM_MIN; n <= CHAR_NGRAM_MAX; n++) {
      if (padded.length < n) break;
      for (let i = 0; i + n <= padded.length; i++) out.push(padded.substring(i, i + n));
    }
    return;
  }
  const chars = Array.from(padded);
  for (let n = CHAR_NGRAM_MIN; n <= CHAR_NGRAM_MAX; n++) {
    if (chars.length < n) break;
    for (let i = 0; i + n <= chars.length; i++) out.push(chars.slice(i, i + n).join(''));
  }
}

/** FNV-1a 32-bit over the UTF-8 bytes of `text` (unsigned result). */
export function fnv1a32(text: string): number {
  return fnv1a32Continue(FNV_OFFSET, text) >>> 0;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * FNV-1a over `text`'s UTF-8 bytes, continuing from `hash` (so hash(a + b) = continue(continue(offset, a), b)
 * when `a` does not end inside a surrogate pair). Code points as `for…of` yields them: a lone surrogate
 * is encoded as its own 3-byte sequence. Returns the signed 32-bit state.
 */
function fnv1a32Continue(hash: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp < 0x80) {
      hash = Math.imul(hash ^ cp, FNV_PRIME);
      continue;
    }
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = (cp - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        i++;
      }
    }
    if (cp < 0x800) {
      hash = Math.imul(hash ^ (0xc0 | (cp >> 6)), FNV_PRIME);
      hash = Math.imul(hash ^ (0x80 | (cp & 0x3f)), FNV_PRIME);
    } else if (cp < 0x10000) {
      hash = Math.imul(hash ^ (0xe0 | (cp >> 12)), FNV_PRIME);
      hash = Math.imul(hash ^ (0x80 | ((cp >> 6) & 0x3f)), FNV_PRIME);
      hash = Math.imul(hash ^ (0x80 | (cp & 0x3f)), FNV_PRIME);
    } else {
      hash = Math.imul(hash ^ (0xf0 | (cp >> 18)), FNV_PRIME);
      hash = Math.imul(hash ^ (0x80 | ((cp >> 12) & 0x3f)), FNV_PRIME);
      hash = Math.imul(hash ^ (0x80 | ((cp >> 6) & 0x3f)), FNV_PRIME);
      hash = Math.imul(hash ^ (0x80 | (cp & 0x3f)), FNV_PRIME);
    }
  }
  return hash;
}

/** murmur3's 32-bit finaliser: spreads every input bit over every output bit (unsigned result). */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function l2(vector: Float64Array): number {
  let sum = 0;
  for (const v of vector) sum += v * v;
  return Math.sqrt(sum);
}

function normalize(vector: Float64Array): Float64Array {
  const norm = l2(vector);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}
