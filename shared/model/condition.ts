import { z } from 'zod';
import { checkRegex, regexFields } from './regex';

/** A rule over the previous task's output; false skips the task. */
export const TaskConditionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('contains'), text: z.string().min(1) }),
  z.strictObject({ type: z.literal('not_contains'), text: z.string().min(1) }),
  z.strictObject({ type: z.literal('regex'), ...regexFields() }).superRefine(checkRegex),
  z.strictObject({
    type: z.literal('json_field'),
    /** Dotted path into the previous output parsed as JSON, e.g. "verdict" or "items.0.score". */
    path: z.string().min(1),
    op: z.enum(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'exists', 'not_exists']),
    value: z.unknown().optional(),
  }),
  /** JavaScript run in the QuickJS sandbox with `output` (string) and `json` (parsed or null); returns a boolean. */
  z.strictObject({ type: z.literal('script'), code: z.string().min(1) }),
]);
export type TaskCondition = z.infer<typeof TaskConditionSchema>;
