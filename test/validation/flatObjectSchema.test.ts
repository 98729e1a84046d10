import { describe, expect, it } from 'vitest';
import { calculatorTool } from '../../runtime/tools/calculator';
import { currentTimeTool } from '../../runtime/tools/currentTime';
import { readFileTool } from '../../runtime/tools/readFile';
import { writeFileTool } from '../../runtime/tools/writeFile';
import { flatObjectCheck } from '../../runtime/validation/flatObjectSchema';
import { compileSchema } from '../../runtime/validation/jsonSchema';

const extraSchemas: Record<string, unknown>[] = [
  {
    type: 'object',
    properties: {
      n: { type: 'integer', minimum: 1, maximum: 10 },
      x: { type: 'number', minimum: -1.5 },
      mode: { type: 'string', enum: ['fast', 'slow'] },
      flag: { type: 'boolean' },
      name: { type: 'string', minLength: 2, maxLength: 3 },
    },
    required: ['n'],
  },
  { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
];

const values: unknown[] = [0, 1, 2.5, 10, 11, -2, '', 'a', 'ab', 'abc', 'abcd', '😀😀', '😀😀😀😀', 'fast', 'slow', true, false, null, [], {}, ['x'], { a: 1 }];
const names = ['expression', 'path', 'content', 'n', 'x', 'mode', 'flag', 'name', 'a', 'other', 'timezone'];

/** Deterministic argument objects: each name absent or given one of the values. */
function* argumentObjects(count: number, own: string[]): Generator<Record<string, unknown>> {
  let state = 7;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
  for (let i = 0; i < count; i++) {
    const args: Record<string, unknown> = {};
    // Half of them use only the schema's own property names, most of them given, so some are valid.
    const pool = i % 2 === 0 ? own : names;
    for (const name of pool) if (next() < (pool === own ? 0.85 : 0.35)) args[name] = values[Math.floor(next() * values.length)];
    yield args;
  }
}

describe('flat object schemas confirm valid arguments without ajv', () => {
  const schemas = [calculatorTool, currentTimeTool, readFileTool, writeFileTool].map((t) => t.parameters).concat(extraSchemas);

  it.each(schemas.map((schema, i) => [i, schema] as const))('schema %i: never valid where ajv says invalid, and valid wherever ajv says valid', (_i, schema) => {
    const check = flatObjectCheck(schema);
    expect(check, JSON.stringify(schema)).toBeDefined();
    const ajv = compileSchema(schema);
    let valid = 0;
    for (const args of argumentObjects(3000, Object.keys((schema.properties ?? {}) as object))) {
      const expected = ajv(args) === true;
      expect(check!(args), `${JSON.stringify(schema)} with ${JSON.stringify(args)}`).toBe(expected);
      if (expected) valid++;
    }
    expect(valid).toBeGreaterThan(0);
  });

  it.each([
    [{ type: 'object', properties: { a: { type: 'string', pattern: '^a' } } }, 'pattern'],
    [{ type: 'object', properties: { a: { type: 'array' } } }, 'an array property'],
    [{ type: 'object', properties: { a: { anyOf: [{ type: 'string' }] } } }, 'anyOf'],
    [{ type: 'object', additionalProperties: { type: 'string' } }, 'a schema for additional properties'],
    [{ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }, 'a dialect'],
    [{ type: 'object', properties: { a: { type: 'string', format: 'uri' } } }, 'a format'],
  ] as [Record<string, unknown>, string][])('leaves %j (%s) to ajv', (schema) => {
    expect(flatObjectCheck(schema)).toBeUndefined();
  });
});
