/**
 * Recovers a JSON schema from a simple pydantic model (`class Report(BaseModel):` with `name: type`
 * fields of str/int/float/bool, lists of those, and Optional[...]). Anything else (validators,
 * nested models, Field(...) constraints) returns `undefined`, and the output class is reported instead.
 */
export function schemaFromPydantic(source: string, className: string): Record<string, unknown> | undefined {
  const m = new RegExp(`^class\\s+${className}\\s*\\(\\s*(?:pydantic\\.)?BaseModel\\s*\\)\\s*:\\s*\\n((?:[ \\t]+.*\\n?|\\s*\\n)*)`, 'm').exec(source);
  if (!m) return undefined;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const raw of m[1].split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '' || /^("""|''')/.test(line) || line === 'pass') continue;
    const field = /^(\w+)\s*:\s*(.+?)(?:\s*=\s*(.+))?$/.exec(line);
    if (!field) return undefined;
    let type = field[2].trim();
    let optional = field[3] !== undefined;
    const opt = /^(?:typing\.)?Optional\[(.+)\]$/.exec(type) ?? /^(.+?)\s*\|\s*None$/.exec(type);
    if (opt) {
      type = opt[1].trim();
      optional = true;
    }
    const schema = typeSchema(type);
    if (!schema) return undefined;
    properties[field[1]] = schema;
    if (!optional) required.push(field[1]);
  }
  if (Object.keys(properties).length === 0) return undefined;
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

const SCALARS: Record<string, string> = { str: 'string', int: 'integer', float: 'number', bool: 'boolean' };

function typeSchema(type: string): Record<string, unknown> | undefined {
  if (SCALARS[type]) return { type: SCALARS[type] };
  const list = /^(?:typing\.)?(?:list|List)\[(.+)\]$/.exec(type);
  if (list) {
    const items = typeSchema(list[1].trim());
    return items ? { type: 'array', items } : undefined;
  }
  return undefined;
}

/** A pydantic model for a JSON schema this module can read back; `undefined` when the schema is richer. */
export function pydanticFromSchema(className: string, schema: Record<string, unknown>): string | undefined {
  if (schema.type !== 'object' || schema.properties === null || typeof schema.properties !== 'object') return undefined;
  const allowed = new Set(['type', 'properties', 'required']);
  if (Object.keys(schema).some((k) => !allowed.has(k))) return undefined;
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  const lines: string[] = [];
  for (const [name, prop] of Object.entries(schema.properties as Record<string, unknown>)) {
    if (!/^[A-Za-z_]\w*$/.test(name)) return undefined;
    const type = pythonType(prop);
    if (!type) return undefined;
    lines.push(required.includes(name) ? `    ${name}: ${type}` : `    ${name}: Optional[${type}] = None`);
  }
  if (lines.length === 0) return undefined;
  return `class ${className}(BaseModel):\n${lines.join('\n')}\n`;
}

function pythonType(prop: unknown): string | undefined {
  if (prop === null || typeof prop !== 'object') return undefined;
  const p = prop as Record<string, unknown>;
  const keys = Object.keys(p);
  const scalar = Object.entries(SCALARS).find(([, json]) => json === p.type)?.[0];
  if (scalar && keys.length === 1) return scalar;
  if (p.type === 'array' && keys.length === 2 && keys.includes('items')) {
    const inner = pythonType(p.items);
    return inner ? `list[${inner}]` : undefined;
  }
  return undefined;
}
