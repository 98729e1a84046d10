import { compileSchema, describeSchemaErrors } from '../validation/jsonSchema';

export type JsonOutcome = { ok: true; value: unknown } | { ok: false; reason: string };

/** Pulls JSON out of an answer: the whole text, a fenced ```json block, or the outermost {...}/[...]. */
export function extractJson(raw: string): JsonOutcome {
  const candidates: string[] = [raw.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(raw);
  if (fenced) candidates.push(fenced[1].trim());
  const firstBrace = raw.search(/[[{]/);
  if (firstBrace >= 0) {
    const close = raw[firstBrace] === '{' ? '}' : ']';
    const last = raw.lastIndexOf(close);
    if (last > firstBrace) candidates.push(raw.slice(firstBrace, last + 1));
  }
  let lastError = 'it is empty';
  for (const text of candidates) {
    if (!text) continue;
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch (error) {
      lastError = (error as Error).message;
    }
  }
  return { ok: false, reason: `output must be valid JSON (${lastError})` };
}

/** Parses and validates a JSON answer against the task's schema. Failures read as requirements. */
export function checkJsonOutput(raw: string, schema: Record<string, unknown> | undefined): JsonOutcome {
  const parsed = extractJson(raw);
  if (!parsed.ok || !schema) return parsed;
  const validate = compileSchema(schema);
  if (validate(parsed.value)) return parsed;
  return { ok: false, reason: `output JSON must match the task's schema: ${describeSchemaErrors(validate.errors)}` };
}
