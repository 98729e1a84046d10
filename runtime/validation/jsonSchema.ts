import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: under Node's ESM loader the default import may be the module object.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

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
    draft2020 = new Ajv2020({ allErrors: true, strict: false });
    addFormats(draft2020 as unknown as Ajv);
  }
  return draft2020;
}

function olderDraft(): Ajv {
  if (!draft07) {
    draft07 = new Ajv({ allErrors: true, strict: false });
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
