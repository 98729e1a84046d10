/**
 * The smallest value a JSON Schema accepts, for the corpus bench's scripted model to answer a task that
 * wants JSON (the pydantic models of real projects: objects with required fields, arrays, enums, $defs).
 */
export function exampleFromSchema(schema: unknown, root: unknown = schema, depth = 0): unknown {
  if (depth > 12 || typeof schema !== 'object' || schema === null) return null;
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') return exampleFromSchema(resolveRef(root, s.$ref), root, depth + 1);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if ('default' in s) return s.default;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length > 0) {
      const usable = options.find((o) => (o as { type?: unknown }).type !== 'null') ?? options[0];
      return exampleFromSchema(usable, root, depth + 1);
    }
  }
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') as string | undefined) : (s.type as string | undefined);
  switch (type ?? (s.properties ? 'object' : s.items ? 'array' : 'string')) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const required = Array.isArray(s.required) ? (s.required as string[]) : Object.keys(properties);
      return Object.fromEntries(required.map((name) => [name, exampleFromSchema(properties[name] ?? {}, root, depth + 1)]));
    }
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 1;
      return Array.from({ length: Math.max(1, min) }, () => exampleFromSchema(s.items ?? {}, root, depth + 1));
    }
    case 'integer':
      return typeof s.minimum === 'number' ? Math.ceil(s.minimum) : 1;
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return typeof s.minLength === 'number' && s.minLength > 7 ? 'x'.repeat(s.minLength) : 'example';
  }
}

function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return {};
  let at: unknown = root;
  for (const part of ref.slice(2).split('/')) at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[part] : undefined;
  return at ?? {};
}
