import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';
import { compileLinearRegex } from '../../shared/model/regex';

// ajv and ajv-formats (CommonJS) are required the first time a schema is compiled, not when a run
// starts: most crews have no JSON Schema at all.
const requireLazily = createRequire(import.meta.url);
function addFormats(ajv: Ajv): void {
  const module = requireLazily('ajv-formats') as typeof addFormatsModule & { default?: typeof addFormatsModule };
  (module.default ?? module)(ajv);
}

/**
 * `pattern` and `patternProperties` run on the same linear-time engine as document regexes
 * (shared/model/regex.ts): a schema's pattern is matched against model output, and JavaScript's
 * backtracking RegExp would let `^(a+)+$` hang the host on a 40-character reply. A pattern the engine
 * cannot take (backreference, lookaround) makes the schema fail to compile, naming the construct.
 */
const linearRegExp = Object.assign(
  (pattern: string, flags: string) => {
    const regex = compileLinearRegex(pattern, flags);
    return { test: (input: string) => regex.test(input), toString: () => `/${pattern}/${flags}` };
  },
  { code: 'linearRegExp' },
);

const AJV_OPTIONS = { allErrors: true, strict: false, code: { regExp: linearRegExp } } as const;

let draft2020: Ajv2020 | undefined;
let draft07: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

/**
 * Compiles a JSON Schema once (cached by its text, since tools are rebuilt per task). Draft 2020-12
 * unless `$schema` names an older draft (zod's toJSONSchema emits 2020-12). Throws on a broken schema.
 */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    const { $schema, ...rest } = schema;
    const older = typeof $schema === 'string' && !/2019-09|2020-12/.test($schema);
    validate = older ? olderDraft().compile(rest) : newerDraft().compile(rest);
    compiled.set(key, validate);
  }
  return validate;
}

function newerDraft(): Ajv2020 {
  if (!draft2020) {
    const { Ajv2020 } = requireLazily('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    draft2020 = new Ajv2020(AJV_OPTIONS);
    addFormats(draft2020 as unknown as Ajv);
  }
  return draft2020;
}

function olderDraft(): Ajv {
  if (!draft07) {
    const { Ajv } = requireLazily('ajv') as typeof import('ajv');
    draft07 = new Ajv(AJV_OPTIONS);
    addFormats(draft07);
  }
  return draft07;
}

/** Human-readable schema problems: `/items/0/price must be number`. */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'does not match the schema';
  return errors
    .map((e) => {
      const where = e.instancePath || '(root)';
      const extra = e.keyword === 'additionalProperties' ? ` ("${(e.params as { additionalProperty: string }).additionalProperty}")` : '';
      return `${where} ${e.message ?? 'is invalid'}${extra}`;
    })
    .join('; ');
}
