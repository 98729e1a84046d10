import { callArguments, pyLiteral, pyString } from './pythonSource';

/**
 * Recovers a JSON schema from a simple pydantic model (`class Report(BaseModel):` with `name: type`
 * fields of str/int/float/bool, lists of those, and Optional[...]), the way pydantic itself decides:
 *   - a field without a default, or with `Field(...)` / `Field(default=...)` of `...`, is required;
 *   - `Optional[X]` (or `X | None`) without a default stays required and allows null (required-nullable);
 *     with a default (`= None`) it is an optional field of type X;
 *   - `Field(description="…")` becomes the property's `description`.
 * Anything else (validators, nested models, other Field(...) constraints) returns `undefined`, and the
 * output class is reported instead.
 */
export function schemaFromPydantic(source: string, className: string): Record<string, unknown> | undefined {
  const m = new RegExp(`^class\\s+${className}\\s*\\(\\s*(?:pydantic\\.)?BaseModel\\s*\\)\\s*:\\s*\\n((?:[ \\t]+.*\\n?|\\s*\\n)*)`, 'm').exec(source);
  if (!m) return undefined;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const raw of joinContinuations(m[1]!.split('\n'))) {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '' || /^("""|''')/.test(line) || line === 'pass') continue;
    const field = /^(\w+)\s*:\s*([^=]+?)(?:\s*=\s*([\s\S]+))?$/.exec(line);
    if (!field) return undefined;
    const name = field[1]!;
    let type = field[2]!.trim();
    let nullable = false;
    const opt = /^(?:typing\.)?Optional\[(.+)\]$/.exec(type) ?? /^(.+?)\s*\|\s*None$/.exec(type);
    if (opt) {
      type = opt[1]!.trim();
      nullable = true;
    }
    const schema = typeSchema(type);
    if (!schema) return undefined;
    const value = field[3]?.trim();
    let hasDefault = value !== undefined;
    const call = value !== undefined ? /^(?:pydantic\.)?Field\s*\(([\s\S]*)\)$/.exec(value) : null;
    if (call) {
      const { positional, keywords } = callArguments(call[1]!);
      const dflt = keywords.get('default') ?? positional[0];
      hasDefault = (dflt !== undefined && dflt !== '...') || keywords.has('default_factory');
      for (const [key, rawValue] of keywords) {
        if (key === 'description') {
          const text = pyString(rawValue);
          if (text === undefined) return undefined;
          schema.description = text;
        } else if (key !== 'default' && key !== 'default_factory') return undefined;
      }
      if (dflt !== undefined && dflt !== '...' && pyLiteral(dflt) === undefined) return undefined;
    }
    // `Optional[X] = None` is an optional field; `Optional[X]` with no default must be given, and may be null.
    if (nullable && !hasDefault) schema.type = [schema.type, 'null'];
    properties[name] = schema;
    if (!hasDefault) required.push(name);
  }
  if (Object.keys(properties).length === 0) return undefined;
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

/** A `Field(` spread over several lines is one field. */
function joinContinuations(lines: string[]): string[] {
  const out: string[] = [];
  let open = 0;
  for (const line of lines) {
    const depth = (line.replace(/("|')(?:\\.|(?!\1).)*\1/g, '').match(/[([{]/g)?.length ?? 0) - (line.replace(/("|')(?:\\.|(?!\1).)*\1/g, '').match(/[)\]}]/g)?.length ?? 0);
    if (open > 0) out[out.length - 1] += ` ${line.trim()}`;
    else out.push(line);
    open += depth;
  }
  return out;
}

const SCALARS: Record<string, string> = { str: 'string', int: 'integer', float: 'number', bool: 'boolean' };

function typeSchema(type: string): Record<string, unknown> | undefined {
  if (SCALARS[type]) return { type: SCALARS[type] };
  const list = /^(?:typing\.)?(?:list|List)\[(.+)\]$/.exec(type);
  if (list) {
    const items = typeSchema(list[1]!.trim());
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
    const field = pythonField(prop);
    if (!field) return undefined;
    const type = field.nullable ? `Optional[${field.type}]` : field.type;
    const isRequired = required.includes(name);
    if (field.description !== undefined) {
      lines.push(`    ${name}: ${isRequired ? type : `Optional[${field.type}]`} = Field(${isRequired ? '...' : 'default=None'}, description=${JSON.stringify(field.description)})`);
    } else lines.push(isRequired ? `    ${name}: ${type}` : `    ${name}: Optional[${field.type}] = None`);
  }
  if (lines.length === 0) return undefined;
  return `class ${className}(BaseModel):\n${lines.join('\n')}\n`;
}

/** Whether a model written by pydanticFromSchema needs `Field` imported. */
export function usesPydanticField(model: string): boolean {
  return /= Field\(/.test(model);
}

function pythonField(prop: unknown): { type: string; nullable: boolean; description?: string } | undefined {
  if (prop === null || typeof prop !== 'object') return undefined;
  const p = prop as Record<string, unknown>;
  const description = typeof p.description === 'string' ? p.description : undefined;
  const keys = Object.keys(p).filter((k) => !(k === 'description' && description !== undefined));
  let jsonType = p.type;
  let nullable = false;
  if (Array.isArray(jsonType) && jsonType.length === 2 && jsonType[1] === 'null' && typeof jsonType[0] === 'string') {
    jsonType = jsonType[0];
    nullable = true;
  }
  const scalar = Object.entries(SCALARS).find(([, json]) => json === jsonType)?.[0];
  if (scalar && keys.length === 1) return { type: scalar, nullable, description };
  if (jsonType === 'array' && keys.length === 2 && keys.includes('items')) {
    const inner = pythonField(p.items);
    return inner && !inner.nullable && inner.description === undefined ? { type: `list[${inner.type}]`, nullable, description } : undefined;
  }
  return undefined;
}
