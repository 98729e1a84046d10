import { z } from 'zod';
import { ModelRefSchema } from './modelRef';
import { checkRegex, regexFields } from './regex';

export const RegexGuardrailSchema = z
  .strictObject({ type: z.literal('regex'), ...regexFields() })
  .superRefine(checkRegex);
export const LengthGuardrailSchema = z
  .strictObject({
    type: z.literal('length'),
    min: z.number().int().min(0).optional(),
    max: z.number().int().min(0).optional(),
  })
  .refine((g) => g.min !== undefined || g.max !== undefined, 'needs min or max')
  .refine((g) => g.min === undefined || g.max === undefined || g.min <= g.max, 'min must not exceed max');
export const ContainsGuardrailSchema = z.strictObject({ type: z.literal('contains'), text: z.string().min(1) });
export const NotContainsGuardrailSchema = z.strictObject({ type: z.literal('not_contains'), text: z.string().min(1) });
export const JsonSchemaGuardrailSchema = z.strictObject({
  type: z.literal('json_schema'),
  schema: z.record(z.string(), z.unknown()),
});
export const LlmGuardrailSchema = z.strictObject({
  type: z.literal('llm'),
  criterion: z.string().min(1),
  llm: ModelRefSchema.optional(),
});

export const GuardrailSchema = z.discriminatedUnion('type', [
  RegexGuardrailSchema,
  LengthGuardrailSchema,
  ContainsGuardrailSchema,
  NotContainsGuardrailSchema,
  JsonSchemaGuardrailSchema,
  LlmGuardrailSchema,
]);
export type Guardrail = z.infer<typeof GuardrailSchema>;

/** The guardrail kinds whose verdict depends on the output alone (no model): a crew test's checks. */
export const DeterministicCheckSchema = z.discriminatedUnion('type', [
  RegexGuardrailSchema,
  LengthGuardrailSchema,
  ContainsGuardrailSchema,
  NotContainsGuardrailSchema,
  JsonSchemaGuardrailSchema,
]);
export type DeterministicCheck = z.infer<typeof DeterministicCheckSchema>;
export type GuardrailType = Guardrail['type'];
