import type { Database, Statement } from 'better-sqlite3';
import { createHash } from 'node:crypto';

/**
 * Long strings are stored once. A model reply travels through `llm.completed`, `agent.completed`,
 * `task.completed`, the task output and the run output; each of those rows holds a reference to one
 * row of the `texts` table (keyed by the text's SHA-256) instead of its own copy, so a 5 MB reply costs
 * 5 MB, not 25. Only strings of at least `LONG_TEXT_CHARS` are moved; short ones stay inline.
 */

export const LONG_TEXT_CHARS = 16 * 1024;
/** U+0000 cannot appear in a stored reference by accident: JSON payloads escape it, and model text rarely holds it. */
const REF_PREFIX = '\u0000text:';
const REF_IN_JSON = '\\u0000text:';
const REF_LENGTH = REF_PREFIX.length + 64;

export class LongTexts {
  private readonly insert: Statement<[string, string], void>;
  private readonly select: Statement<[string], { text: string }>;
  /** The last few texts referenced: one reply is packed four or five times in a row. */
  private readonly recent = new Map<string, string>();

  constructor(db: Database) {
    this.insert = db.prepare('INSERT OR IGNORE INTO texts (hash, text) VALUES (?, ?)');
    this.select = db.prepare('SELECT text FROM texts WHERE hash = ?');
  }

  /**
   * A reference to `text`, stored once whatever its length: a run's document is the same for every run
   * of one version of it (a batch of 1,000 rows stores its crew once, not 1,000 times).
   */
  packAlways(text: string): string {
    return this.reference(text);
  }

  /** A string to store in place of `text`: a reference when it is long (the text is stored), else itself. */
  packText(text: string): string;
  packText(text: string | null): string | null;
  packText(text: string | null): string | null {
    if (text === null || text.length < LONG_TEXT_CHARS) return text;
    return this.reference(text);
  }

  private reference(text: string): string {
    let ref = this.recent.get(text);
    if (!ref) {
      const hash = createHash('sha256').update(text).digest('hex');
      this.insert.run(hash, text);
      ref = REF_PREFIX + hash;
      this.recent.set(text, ref);
      if (this.recent.size > 8) this.recent.delete(this.recent.keys().next().value as string);
    }
    return ref;
  }

  /** The text a stored string stands for. */
  unpackText(stored: string): string;
  unpackText(stored: string | null): string | null;
  unpackText(stored: string | null): string | null {
    if (stored === null || stored.length !== REF_LENGTH || !stored.startsWith(REF_PREFIX)) return stored;
    const row = this.select.get(stored.slice(REF_PREFIX.length));
    if (!row) throw new Error(`stored text ${stored.slice(REF_PREFIX.length)} is missing from the texts table`);
    return row.text;
  }

  /** `JSON.stringify(value)` with every long string in it stored once and referenced. */
  packJson(value: unknown): string {
    const json = JSON.stringify(value);
    // No string inside can be long if the whole text is short: most payloads skip the walk.
    if (json === undefined || json.length < LONG_TEXT_CHARS) return json;
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? this.packText(v) : v));
  }

  /** `JSON.parse(json)` with references replaced by their texts. */
  parseJson(json: string): unknown {
    if (!json.includes(REF_IN_JSON)) return JSON.parse(json);
    return JSON.parse(json, (_key, v: unknown) => (typeof v === 'string' ? this.unpackText(v) : v));
  }
}
