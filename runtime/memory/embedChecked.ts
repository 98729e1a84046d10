import type { Embedder } from './types';

/** Embeds texts in one batch with `embedder`, checked: one vector per text, of the embedder's dimension. */
export async function embedChecked(embedder: Embedder, texts: string[]): Promise<number[][]> {
  if (texts.length === 0) return [];
  const vectors = await embedder.embed(texts);
  if (vectors.length !== texts.length) {
    throw new Error(`embedder "${embedder.id}" returned ${vectors.length} vectors for ${texts.length} texts`);
  }
  for (const v of vectors) {
    if (v.length !== embedder.dimensions) {
      throw new Error(`embedder "${embedder.id}" returned a ${v.length}-d vector, expected ${embedder.dimensions}`);
    }
  }
  return vectors;
}
