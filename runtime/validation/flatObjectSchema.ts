/**
 * A check for the simplest tool parameter schemas — an object of strings, numbers, integers and
 * booleans with required, enum, min/max length and minimum/maximum, and no other keyword — that can
 * say "valid" without ajv. The built-in tools' schemas are of this kind, so a run's first tool call
 * does not wait for ajv to load and compile (a few hundred ms, more under load; docs/PERFORMANCE.md).
 *
 * It only ever confirms: `surelyValid(args)` is true when the arguments match, and false when they do
 * not or when it cannot tell — then ajv (jsonSchema.ts) decides and names the problems. A schema with
 * any keyword outside the list gets no check at all (undefined).
 */
export type SurelyValid = (args: Record<string, unknown>) => boolean;

const ROOT_KEYS = new Set(['type', 'properties', 'required', 'additionalProperties', 'description', 'title']);
const PROPERTY_KEYS = new Set(['type', 'description', 'title', 'minLength', 'maxLength', 'minimum', 'maximum', 'enum', 'default']);
const TYPES = new Set(['string', 'number', 'integer', 'boolean']);

interface FlatProperty {
  type: 'string' | 'number' | 'integer' | 'boolean';
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: readonly (string | number | boolean)[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function flatProperty(schema: unknown): FlatProperty | undefined {
  if (!isRecord(schema) || typeof schema.type !== 'string' || !TYPES.has(schema.type)) return undefined;
  if (Object.keys(schema).some((k) => !PROPERTY_KEYS.has(k))) return undefined;
  for (const k of ['minLength', 'maxLength', 'minimum', 'maximum'] as const) {
    if (schema[k] !== undefined && !isNumber(schema[k])) return undefined;
  }
  if (schema.enum !== undefined && !(Array.isArray(schema.enum) && schema.enum.every((v) => ['string', 'number', 'boolean'].includes(typeof v)))) return undefined;
  return schema as unknown as FlatProperty;
}

function matches(p: FlatProperty, value: unknown): boolean {
  switch (p.type) {
    case 'string': {
      if (typeof value !== 'string') return false;
      if (p.minLength !== undefined || p.maxLength !== undefined) {
        // JSON Schema counts characters as code points, as ajv does.
        const length = [...value].length;
        if (p.minLength !== undefined && length < p.minLength) return false;
        if (p.maxLength !== undefined && length > p.maxLength) return false;
      }
      break;
    }
    case 'number':
    case 'integer':
      if (!isNumber(value) || (p.type === 'integer' && !Number.isInteger(value))) return false;
      if (p.minimum !== undefined && value < p.minimum) return false;
      if (p.maximum !== undefined && value > p.maximum) return false;
      break;
    case 'boolean':
      if (typeof value !== 'boolean') return false;
      break;
  }
  return p.enum === undefined || p.enum.includes(value as string | number | boolean);
}

/** The confirming check for `schema`, or undefined when the schema is not of the simple kind. */
export function flatObjectCheck(schema: Record<string, unknown>): SurelyValid | undefined {
  if (schema.type !== 'object' || Object.keys(schema).some((k) => !ROOT_KEYS.has(k))) return undefined;
  const properties = schema.properties ?? {};
  if (!isRecord(properties)) return undefined;
  const props = new Map<string, FlatProperty>();
  for (const [name, sub] of Object.entries(properties)) {
    const p = flatProperty(sub);
    if (!p) return undefined;
    props.set(name, p);
  }
  const required = schema.required ?? [];
  if (!Array.isArray(required) || !required.every((r) => typeof r === 'string')) return undefined;
  const extra = schema.additionalProperties;
  if (extra !== undefined && typeof extra !== 'boolean') return undefined;
  const closed = extra === false;
  return (args) => {
    for (const name of required as string[]) if (!Object.hasOwn(args, name) || args[name] === undefined) return false;
    for (const [name, value] of Object.entries(args)) {
      const p = props.get(name);
      if (!p) {
        if (closed) return false;
        continue;
      }
      if (!matches(p, value)) return false;
    }
    return true;
  };
}
