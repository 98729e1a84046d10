import { describe, expect, it } from 'vitest';
import { FlowDocumentSchema } from '../../shared/model/flow';
import { flowSchemaProblems } from '../../runtime/document/schemaProblems';
import { readJsonMatching } from '../../runtime/reading/jsonValue';
import { compileSchema } from '../../runtime/validation/jsonSchema';

/**
 * Review attack (issue 13): a document's JSON Schema (task output schema, flow state schema, an llm
 * body's outputSchema) is checked against what a model wrote. ajv compiles `pattern` and
 * `patternProperties` with JavaScript's backtracking RegExp by default, so a schema from a downloaded
 * workspace with `^(a+)+$` froze the host on a 40-character reply — the same hole the guardrail regexes
 * had. The schema's patterns now run on the linear-time engine.
 */
const EVIL = `${'a'.repeat(40)}!`;

describe('JSON Schema patterns run in linear time', () => {
  it('a catastrophic `pattern` on model output finishes in under a second (and still rejects)', () => {
    const reading = readJsonMatching(JSON.stringify({ name: EVIL }), {
      type: 'object',
      properties: { name: { type: 'string', pattern: '^(a+)+$' } },
    });
    expect(reading.ok).toBe(false);
  });

  it('a catastrophic `patternProperties` key pattern finishes in under a second', () => {
    const validate = compileSchema({ type: 'object', patternProperties: { '^(a|a)+$': { type: 'number' } }, additionalProperties: false });
    expect(validate({ [EVIL]: 1 })).toBe(false);
  });

  it('ordinary patterns keep their meaning (flags u, anchors, classes)', () => {
    const validate = compileSchema({ type: 'string', pattern: '^[A-Z]{2}-\\d+$' });
    expect(validate('AB-12')).toBe(true);
    expect(validate('ab-12')).toBe(false);
    expect(compileSchema({ type: 'string', pattern: 'é' })('café')).toBe(true);
  });

  it('a schema pattern the engine cannot take is a validate problem naming the field', () => {
    const doc = FlowDocumentSchema.parse({
      kind: 'flow',
      version: 1,
      id: 'f',
      name: 'F',
      state: { schema: { type: 'object', properties: { word: { type: 'string', pattern: '^(?=a)a+$' } } } },
      methods: [{ id: 'm', name: 'm', trigger: { start: true }, body: { type: 'llm', prompt: 'x' } }],
    });
    expect(flowSchemaProblems(doc)).toEqual([{ path: 'state.schema', message: expect.stringMatching(/lookahead/) }]);
  });
});
