import { createHash } from 'node:crypto';

const WIRE_SAFE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The name a tool goes by on the wire. OpenAI-style APIs only accept `^[A-Za-z0-9_-]{1,64}$`, so
 * `mcp:fs/list_directory` travels as `mcp__fs__list_directory` (long names are cut and given a
 * hash suffix). Other names are sent as they are.
 */
export function toWireName(name: string): string {
  if (WIRE_SAFE.test(name)) return name;
  const safe = name.replace(/[:/]/g, '__').replace(/[^A-Za-z0-9_-]/g, '_');
  if (safe.length <= 64) return safe;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${safe.slice(0, 55)}_${hash}`;
}

/** The tool name a model's wire name stands for, among the tools of the request (unknown names stay). */
export function fromWireName(wire: string, tools: readonly { name: string }[] | undefined): string {
  if (!tools) return wire;
  for (const t of tools) if (t.name === wire) return wire;
  for (const t of tools) if (toWireName(t.name) === wire) return t.name;
  return wire;
}
