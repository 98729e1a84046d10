import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// axe-core run on what the page shows now: WCAG AA contrast alone (4.5:1 for text, its color-contrast
// rule), or every rule whose violations it rates serious or critical.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface ContrastViolation {
  target: string;
  summary: string;
}

export interface AxeViolation {
  rule: string;
  impact: string;
  target: string;
  summary: string;
}

async function runAxe(page: Page, options: unknown): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol: the app's CSP (script-src 'self') refuses inline script tags.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async (opts) => {
    type Result = { violations: { id: string; impact?: string; nodes: { target: string[]; failureSummary?: string }[] }[] };
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<Result> } }).axe;
    const result = await axe.run(document, opts);
    return result.violations.flatMap((v) => v.nodes.map((n) => ({ rule: v.id, impact: v.impact ?? '', target: n.target.join(' '), summary: (n.failureSummary ?? '').split('\n').slice(-1)[0] ?? '' })));
  }, options);
}

export async function contrastViolations(page: Page): Promise<ContrastViolation[]> {
  return (await runAxe(page, { runOnly: { type: 'rule', values: ['color-contrast'] } })).map(({ target, summary }) => ({ target, summary }));
}

/** Violations of any axe rule (WCAG A/AA and best practice) rated serious or critical. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  return (await runAxe(page, {})).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
