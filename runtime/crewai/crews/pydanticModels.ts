import type { PyCall, PyExpr, PyStmt } from '../python/pyAst';
import { calleeName, constString, kwarg, positional } from '../python/pyAst';
import type { Evaluator } from '../construct/evaluator';
import { baseName } from '../construct/valueOps';
import { plainOf, type ClassRef } from '../construct/values';

/**
 * A pydantic model (`class Report(BaseModel)`) as JSON Schema, read the way pydantic decides: a field
 * without a default (or `Field(...)`) is required; `Optional[X]` / `X | None` allows null (and stays
 * required without a default); `Field(description=…)` is the property's description; nested models
 * become `$defs` with `$ref`s; `Literal[...]` is an enum; numeric and length constraints carry over.
 * `undefined` with the reason when a field's type is beyond this.
 */
export type SchemaReading = { ok: true; schema: Record<string, unknown>; defaults: Record<string, unknown> } | { ok: false; why: string };

const SCALARS: Record<string, Record<string, unknown>> = {
  str: { type: 'string' },
  int: { type: 'integer' },
  float: { type: 'number' },
  bool: { type: 'boolean' },
  Any: {},
  object: {},
  date: { type: 'string', format: 'date' },
  datetime: { type: 'string', format: 'date-time' },
};
const CONSTRAINTS: Record<string, string> = { ge: 'minimum', le: 'maximum', gt: 'exclusiveMinimum', lt: 'exclusiveMaximum', min_length: 'minLength', max_length: 'maxLength', pattern: 'pattern' };

export function schemaOfModel(ev: Evaluator, cls: ClassRef): SchemaReading {
  const defs: Record<string, Record<string, unknown>> = {};
  const reading = new ModelReader(ev, defs).model(cls, true);
  if (!reading.ok) return reading;
  const schema = Object.keys(defs).length > 0 ? { ...reading.schema, $defs: defs } : reading.schema;
  return { ok: true, schema, defaults: reading.defaults };
}

class ModelReader {
  private readonly stack: string[] = [];
  constructor(
    private readonly ev: Evaluator,
    private readonly defs: Record<string, Record<string, unknown>>,
  ) {}

  model(cls: ClassRef, top: boolean): SchemaReading {
    if (this.stack.includes(cls.name)) return { ok: true, schema: { $ref: `#/$defs/${cls.name}` }, defaults: {} };
    this.stack.push(cls.name);
    try {
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      const defaults: Record<string, unknown> = {};
      for (const base of this.ev.bases(cls)) {
        const inherited = this.model(base, true);
        if (!inherited.ok) return inherited;
        Object.assign(properties, (inherited.schema.properties as Record<string, unknown>) ?? {});
        required.push(...((inherited.schema.required as string[]) ?? []));
      }
      for (const s of cls.def.body) {
        const field = fieldOf(s);
        if (!field) continue;
        const read = this.field(cls, field.annotation, field.value);
        if (!read.ok) return { ok: false, why: `${cls.name}.${field.name}: ${read.why}` };
        properties[field.name] = read.schema;
        if (read.required) required.push(field.name);
        else if (read.default !== undefined) defaults[field.name] = read.default;
      }
      const schema: Record<string, unknown> = { type: 'object', properties, ...(required.length > 0 ? { required: [...new Set(required)] } : {}) };
      if (cls.def.docstring && !top) schema.description = cls.def.docstring.trim();
      return { ok: true, schema, defaults };
    } finally {
      this.stack.pop();
    }
  }

  private field(cls: ClassRef, annotation: PyExpr, value: PyExpr | undefined): { ok: true; schema: Record<string, unknown>; required: boolean; default?: unknown } | { ok: false; why: string } {
    const type = this.type(cls, annotation);
    if (!type.ok) return type;
    const schema = { ...type.schema };
    let required = value === undefined;
    let dflt: unknown;
    const call = value?.k === 'call' && calleeName(value) === 'Field' ? value : undefined;
    if (call) {
      const given = kwarg(call, 'default') ?? positional(call)[0];
      const factory = kwarg(call, 'default_factory');
      required = (given === undefined || given.k === 'ellipsis') && factory === undefined;
      if (given && given.k !== 'ellipsis') dflt = this.literal(cls, given);
      if (factory) dflt = factoryDefault(factory);
      const problem = constraints(call, schema);
      if (problem) return { ok: false, why: problem };
    } else if (value !== undefined) dflt = this.literal(cls, value);
    // `Optional[X] = None` is an optional field of type X (what the exporter writes for one); without a default it is required and may be null.
    const nullable = type.nullable && !(dflt === null && !required);
    return { ok: true, schema: withNull(schema, nullable), required, ...(dflt !== undefined && dflt !== null ? { default: dflt } : {}) };
  }

  private literal(cls: ClassRef, e: PyExpr): unknown {
    const globals = this.ev.moduleGlobals(cls.mod);
    return plainOf(this.ev.expr({ mod: cls.mod, locals: new Map(), globals, standalone: false, depth: 1 }, e));
  }

  /** A type annotation as a schema; `nullable` for Optional[X] and X | None. */
  type(cls: ClassRef, t: PyExpr, depth = 0): { ok: true; schema: Record<string, unknown>; nullable: boolean } | { ok: false; why: string } {
    if (depth > 10) return { ok: false, why: 'a type nested too deep' };
    if (t.k === 'const' && typeof t.v === 'string') return this.type(cls, { ...t, k: 'name', id: t.v }, depth + 1);
    if (t.k === 'const' && t.v === null) return { ok: true, schema: { type: 'null' }, nullable: false };
    if (t.k === 'bin' && t.op === '|') return this.union(cls, [t.l, t.r], depth);
    const name = baseName(t);
    if (t.k === 'sub' && name) {
      const args = t.index.k === 'tuple' ? t.index.items : [t.index];
      if (name === 'Optional') return this.union(cls, [args[0]!, { ...t, k: 'const', v: null }], depth);
      if (name === 'Union') return this.union(cls, args, depth);
      if (name === 'List' || name === 'list' || name === 'Sequence' || name === 'Set' || name === 'set' || name === 'Tuple' || name === 'tuple') {
        const items = this.type(cls, args[0]!, depth + 1);
        return items.ok ? { ok: true, schema: { type: 'array', items: withNull(items.schema, items.nullable) }, nullable: false } : items;
      }
      if (name === 'Dict' || name === 'dict' || name === 'Mapping') {
        const values = args[1] ? this.type(cls, args[1], depth + 1) : { ok: true as const, schema: {}, nullable: false };
        return values.ok ? { ok: true, schema: { type: 'object', additionalProperties: withNull(values.schema, values.nullable) }, nullable: false } : values;
      }
      if (name === 'Literal') {
        const values = args.map((a) => (a.k === 'const' ? a.v : undefined));
        return values.every((v) => v !== undefined) ? { ok: true, schema: { enum: values }, nullable: false } : { ok: false, why: 'a Literal of values that are not constants' };
      }
      if (name === 'Annotated') return this.type(cls, args[0]!, depth + 1);
      return { ok: false, why: `the type ${name}[...]` };
    }
    if (name && SCALARS[name] && t.k !== 'sub') return { ok: true, schema: { ...SCALARS[name] }, nullable: false };
    if (name === 'list' || name === 'List') return { ok: true, schema: { type: 'array' }, nullable: false };
    if (name === 'dict' || name === 'Dict') return { ok: true, schema: { type: 'object' }, nullable: false };
    const globals = this.ev.moduleGlobals(cls.mod);
    const ref = this.ev.expr({ mod: cls.mod, locals: new Map(), globals, standalone: false, depth: 1 }, t);
    if (ref.t === 'class' && this.ev.baseNames(ref.ref).some((b) => b === 'BaseModel' || b === 'Enum' || b === 'str')) {
      if (this.ev.baseNames(ref.ref).includes('Enum')) return this.enumOf(ref.ref);
      if (!this.defs[ref.ref.name] && !this.stack.includes(ref.ref.name)) {
        const nested = this.model(ref.ref, false);
        if (!nested.ok) return nested;
        this.defs[ref.ref.name] = nested.schema;
      }
      return { ok: true, schema: { $ref: `#/$defs/${ref.ref.name}` }, nullable: false };
    }
    return { ok: false, why: `the type ${name ?? 'annotation'} is not one the importer can read as JSON Schema` };
  }

  private union(cls: ClassRef, members: PyExpr[], depth: number): { ok: true; schema: Record<string, unknown>; nullable: boolean } | { ok: false; why: string } {
    const read = members.map((m) => this.type(cls, m, depth + 1));
    const bad = read.find((r) => !r.ok);
    if (bad) return bad;
    const schemas = read.flatMap((r) => (r.ok ? [r.schema] : []));
    const nullable = schemas.some((s) => s.type === 'null');
    const rest = schemas.filter((s) => s.type !== 'null');
    if (rest.length === 1) return { ok: true, schema: rest[0]!, nullable };
    return { ok: true, schema: { anyOf: rest }, nullable };
  }

  private enumOf(cls: ClassRef): { ok: true; schema: Record<string, unknown>; nullable: boolean } | { ok: false; why: string } {
    const values = cls.def.body.flatMap((s) => (s.k === 'assign' && s.value.k === 'const' ? [s.value.v] : []));
    return values.length > 0 ? { ok: true, schema: { enum: values }, nullable: false } : { ok: false, why: `the enum ${cls.name} has no constant values` };
  }
}

/** `name: type = value` in a class body (methods, class variables without annotations and model_config left out). */
function fieldOf(s: PyStmt): { name: string; annotation: PyExpr; value?: PyExpr } | undefined {
  if (s.k === 'annassign' && s.target.k === 'name') return { name: s.target.id, annotation: s.annotation };
  if (s.k === 'assign' && s.annotation && s.targets.length === 1 && s.targets[0]!.k === 'name') {
    const name = s.targets[0]!.id;
    if (name === 'model_config' || baseName(s.annotation) === 'ClassVar') return undefined;
    return { name, annotation: s.annotation, value: s.value };
  }
  return undefined;
}

function factoryDefault(e: PyExpr): unknown {
  const name = baseName(e);
  if (name === 'list') return [];
  if (name === 'dict') return {};
  if (e.k === 'lambda' && e.body.k === 'list' && e.body.items.length === 0) return [];
  return undefined;
}

function constraints(call: PyCall, schema: Record<string, unknown>): string | undefined {
  for (const a of call.args) {
    if (a.kind !== 'kw') continue;
    if (a.name === 'description' || a.name === 'title') {
      const text = constString(a.e);
      if (text !== undefined) schema[a.name] = text;
    } else if (CONSTRAINTS[a.name]) {
      if (a.e.k !== 'const' || a.e.v === null) return `Field(${a.name}=...) is not a constant`;
      schema[CONSTRAINTS[a.name]!] = a.e.v;
    }
  }
  return undefined;
}

function withNull(schema: Record<string, unknown>, nullable: boolean): Record<string, unknown> {
  if (!nullable) return schema;
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.type)) return schema;
  return { anyOf: [schema, { type: 'null' }] };
}
