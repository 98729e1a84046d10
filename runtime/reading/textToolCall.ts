import { readJson } from './jsonValue';

export interface TextToolCall {
  name: string;
  args: Record<string, unknown>;
  /** The JSON text of the arguments, as a native call carries them. */
  arguments: string;
}

const NAME_KEYS = ['name', 'tool', 'function'] as const;
const ARG_KEYS = ['arguments', 'parameters', 'args'] as const;
const ALLOWED_KEYS = new Set<string>([...NAME_KEYS, ...ARG_KEYS, 'type', 'id']);

/**
 * A tool call written as text (small local models do it in native mode): the whole reply is exactly
 * one JSON object `{name|tool|function, arguments|parameters|args}` (fenced or not), and the name is
 * one of `offered`. Anything else — another shape, several objects, prose around it, a name no tool
 * has — is not a tool call and stays the model's text.
 */
export function readTextToolCall(content: string, isOffered: (name: string) => boolean): TextToolCall | undefined {
  const text = content.trim();
  if (!text.startsWith('{') && !text.startsWith('```')) return undefined;
  // A fenced call is the fence alone: prose after the closing fence makes it text like prose after an object.
  if (text.startsWith('```') && (!text.endsWith('```') || text.split('```').length !== 3)) return undefined;
  const read = readJson(text);
  if (!read.ok || read.readAs.includes('json-in-prose')) return undefined;
  const value = read.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (Object.keys(record).some((k) => !ALLOWED_KEYS.has(k))) return undefined;
  let name: unknown = NAME_KEYS.map((k) => record[k]).find((v) => v !== undefined);
  let rawArgs: unknown = ARG_KEYS.map((k) => record[k]).find((v) => v !== undefined);
  // OpenAI's own shape written out: {"type": "function", "function": {"name": …, "arguments": …}}.
  if (name !== null && typeof name === 'object' && !Array.isArray(name)) {
    const fn = name as Record<string, unknown>;
    name = fn.name;
    rawArgs ??= fn.arguments ?? fn.parameters;
  }
  if (typeof name !== 'string' || !isOffered(name)) return undefined;
  const args = toArgs(rawArgs);
  if (args === undefined) return undefined;
  return { name, args, arguments: JSON.stringify(args) };
}

function toArgs(raw: unknown): Record<string, unknown> | undefined {
  if (raw === undefined || raw === null) return {};
  if (typeof raw === 'string') {
    const read = readJson(raw);
    return read.ok ? toArgs(read.value) : undefined;
  }
  return typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
}
