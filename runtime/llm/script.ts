import { z } from 'zod';
import { formatPath, formatProblems, type Problem } from '../../shared/model/problems';
import { compileLinearRegex, regexProblem } from '../../shared/model/regex';

/**
 * Script of the `scripted` provider: deterministic replies for tests, demos and offline examples.
 * A Text matcher is a case-sensitive substring, or "/regex/flags". The groups a rule's regexes capture
 * (system's, then last's, then any's) are `$1`…`$9` in its reply's content and tool call arguments, so a
 * demo can answer about the inputs it was given.
 */

const REGEX_TEXT = /^\/(.*)\/([a-z]*)$/s;

/**
 * Compiles a Text matcher; g and y are dropped so a matcher has no lastIndex state. Regexes run on
 * the linear-time engine of document regexes: a script comes with a workspace, the text it matches
 * can be anything. It answers with the groups a "/regex/" captured (none for a substring), or
 * undefined when it does not match: a rule's reply can say `$1`…`$9` for them.
 */
export function compileTextGroups(text: string): (value: string) => string[] | undefined {
  const m = REGEX_TEXT.exec(text);
  if (!m || m[1] === '') return (value) => (value.includes(text) ? [] : undefined);
  // Both groups of REGEX_TEXT always take part.
  const re = compileLinearRegex(m[1]!, m[2]!.replace(/[gy]/g, ''));
  return (value) => re.groups(value)?.slice(1);
}

const TextSchema = z.string().min(1).superRefine((text, ctx) => {
  const m = REGEX_TEXT.exec(text);
  if (!m || m[1] === '') return;
  const problem = regexProblem(m[1]!, m[2]!);
  if (problem) ctx.addIssue({ code: 'custom', message: problem.message });
});

export const MatchSchema = z.strictObject({
  /** The system message(s). */
  system: TextSchema.optional(),
  /** The last message's content. */
  last: TextSchema.optional(),
  /** Any message's content. */
  any: TextSchema.optional(),
  lastRole: z.enum(['user', 'assistant', 'tool']).optional(),
  /** Whether the request offers tools. */
  hasTools: z.boolean().optional(),
  /** 0-based count of earlier calls to this model instance. */
  callIndex: z.number().int().min(0).optional(),
});
export type Match = z.infer<typeof MatchSchema>;

export const ScriptToolCallSchema = z.strictObject({
  name: z.string().min(1),
  /** An object is sent JSON-encoded; a string is sent as is (even if it is not valid JSON). */
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()]),
});

export const ReplyObjectSchema = z.strictObject({
  content: z.string().optional(),
  toolCalls: z.array(ScriptToolCallSchema).optional(),
  /** Token counts to report; missing ones are estimated (characters / 4). */
  usage: z
    .strictObject({
      prompt: z.number().int().min(0).optional(),
      completion: z.number().int().min(0).optional(),
      cached: z.number().int().min(0).optional(),
    })
    .optional(),
  delayMs: z.number().min(0).optional(),
  /** Fail the call instead of replying. code context_length_exceeded / tools_unsupported map to typed errors. */
  error: z
    .strictObject({ status: z.number().int().optional(), message: z.string().min(1), code: z.string().optional() })
    .optional(),
});
export const ReplySchema = z.union([z.string(), ReplyObjectSchema]);
export type Reply = z.infer<typeof ReplySchema>;

export const RuleSchema = z.strictObject({
  when: MatchSchema,
  /** A list is used in order by successive uses of the rule; the last entry repeats. */
  reply: z.union([ReplySchema, z.array(ReplySchema).min(1)]),
  /** Maximum uses of the rule; unlimited when omitted. */
  times: z.number().int().positive().optional(),
});
export type Rule = z.infer<typeof RuleSchema>;

export const ScriptSchema = z.strictObject({
  rules: z.array(RuleSchema).optional(),
  /** Used in order when no rule matches. */
  sequence: z.array(ReplySchema).optional(),
  /** Used when no rule matches and the sequence is used up. */
  default: ReplySchema.optional(),
  nativeTools: z.boolean().default(true),
  stream: z.boolean().default(false),
});
export type Script = z.infer<typeof ScriptSchema>;

/** A script failed validation, or its file could not be read. */
export class ScriptInvalid extends Error {
  override name = 'ScriptInvalid';
  constructor(
    readonly source: string,
    readonly problems: Problem[],
  ) {
    super(formatProblems(problems).split('\n').map((line) => `${source}: ${line}`).join('\n'));
  }
}

/** Validates a parsed JSON value as a script; `sourceName` (a file path, or a label) prefixes every problem. */
export function parseScript(value: unknown, sourceName: string): Script {
  const result = ScriptSchema.safeParse(value);
  if (!result.success) throw new ScriptInvalid(sourceName, scriptProblems(result.error));
  return result.data;
}

/**
 * Flattens zod issues. A union (a reply is a string or an object) reports every branch; the branch
 * whose errors reach deepest is the one the author meant, so its errors are shown.
 */
function scriptProblems(error: z.ZodError): Problem[] {
  const out: Problem[] = [];
  const collect = (issue: z.core.$ZodIssue, prefix: PropertyKey[]): void => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0 && issue.errors.every((b) => b.length > 0)) {
      const depth = (branch: z.core.$ZodIssue[]) => Math.max(...branch.map((i) => i.path.length + (i.code === 'invalid_union' ? 1 : 0)));
      const best = issue.errors.reduce((a, b) => (depth(b) > depth(a) ? b : a));
      for (const inner of best) collect(inner, path);
      return;
    }
    out.push({ path: formatPath(path), message: issue.message });
  };
  for (const issue of error.issues) collect(issue, []);
  return out;
}
