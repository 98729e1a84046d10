import { z } from 'zod';

/** A regular expression given as `pattern` + optional `flags`, checked by compiling both together. */
export function regexFields() {
  return {
    pattern: z.string().min(1),
    flags: z.string().regex(/^[dgimsuvy]*$/, 'regex flags may only use d g i m s u v y').optional(),
  };
}

export function checkRegex(value: { pattern: string; flags?: string }, ctx: z.RefinementCtx): void {
  try {
    new RegExp(value.pattern, value.flags);
  } catch (error) {
    const message = (error as Error).message;
    const badFlags = /flag/i.test(message);
    ctx.addIssue({ code: 'custom', path: [badFlags ? 'flags' : 'pattern'], message: `is not a valid regular expression: ${message}` });
  }
}
