import type { z } from 'zod';

/** One validation problem: where (dotted path) and what. */
export interface Problem {
  path: string;
  message: string;
}

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return '(document)';
  return path.map((p) => String(p)).join('.');
}

export function problemsFromZod(error: z.ZodError): Problem[] {
  const out: Problem[] = [];
  for (const issue of error.issues) collect(issue, [], out);
  return out;
}

function collect(issue: z.core.$ZodIssue, prefix: PropertyKey[], out: Problem[]): void {
  const path = [...prefix, ...issue.path];
  // Unions report every branch; surface the branch errors so the user sees what each option wanted.
  if (issue.code === 'invalid_union' && issue.errors.length > 0 && issue.errors.every((b) => b.length > 0)) {
    const best = issue.errors.reduce((a, b) => (b.length < a.length ? b : a));
    for (const inner of best) collect(inner, path, out);
    return;
  }
  out.push({ path: formatPath(path), message: plainMessage(issue) });
}

/** Zod's wording where a person would say it more simply (it shows under the field in the app). */
function plainMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
  return issue.message;
}

export function formatProblems(problems: Problem[]): string {
  return problems.map((p) => `${p.path}: ${p.message}`).join('\n');
}
