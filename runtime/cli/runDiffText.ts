import type { RunDiff, RunStepDiff, WordDiffPart } from '../../shared/runDiff';
import { describeCost, formatUsd, type TokenUsage } from '../../shared/usage';
import { formatCount, formatDuration, oneLine } from './format';
import type { Style } from './style';

/** `crewdeck runs diff` for people: one block per changed step, one line per equal one, then the totals. */
export function runDiffText(diff: RunDiff, style: Style): string {
  const lines = [`${style.bold('A')} ${diff.runA.id} · ${diff.runA.status} · ${diff.runA.name}`, `${style.bold('B')} ${diff.runB.id} · ${diff.runB.status} · ${diff.runB.name}`, ''];
  for (const step of diff.tasks) lines.push(...stepLines(step, style));
  lines.push('', `${style.bold('Total')}  ${usageChange(diff.tokenUsage.a, diff.tokenUsage.b)}${durationChange(diff.durationMs.a, diff.durationMs.b)}`);
  lines.push(`${style.bold('Cost')}   ${costText(diff.tokenUsage.a)} → ${costText(diff.tokenUsage.b)}${diff.costUsd.a !== undefined && diff.costUsd.b !== undefined ? ` (${signedUsd(diff.costUsd.b - diff.costUsd.a)})` : ''}`);
  return `${lines.join('\n')}\n`;
}

function stepLines(step: RunStepDiff, style: Style): string[] {
  const head = `${step.changed ? style.yellow('≠ changed') : style.green('= equal  ')} ${style.bold(step.taskId)}`;
  const facts = [`${signed(step.delta.totalTokens)} tok`];
  if (step.delta.durationMs !== undefined) facts.push(`${step.delta.durationMs >= 0 ? '+' : '-'}${formatDuration(Math.abs(step.delta.durationMs))}`);
  if (step.delta.costUsd !== undefined) facts.push(signedUsd(step.delta.costUsd));
  const out = [`${head}  ${style.dim(facts.join(' · '))}`];
  if (!step.a) out.push(`    only in B`);
  if (!step.b) out.push(`    only in A`);
  if (step.a && step.b && step.a.status !== step.b.status) out.push(`    status ${step.a.status} → ${step.b.status}`);
  if (step.a && step.b && step.a.attempts + step.b.attempts > 2) out.push(`    attempts ${step.a.attempts} → ${step.b.attempts}`);
  for (const side of [step.a, step.b]) {
    for (const g of side?.guardrails.filter((x) => !x.passed) ?? []) out.push(style.dim(`    ${side === step.a ? 'A' : 'B'} guardrail ${g.guardrail} failed (attempt ${g.attempt}): ${oneLine(g.reason ?? '', 70)}`));
  }
  for (const call of step.toolCalls.added) out.push(style.green(`    + tool ${oneLine(call, 90)}`));
  for (const call of step.toolCalls.removed) out.push(style.red(`    - tool ${oneLine(call, 90)}`));
  if (step.changed && (step.a?.output || step.b?.output)) out.push(`    ${highlighted(step.words, style)}`);
  return out;
}

function highlighted(parts: WordDiffPart[], style: Style): string {
  return parts
    .map((p) => (p.op === 'equal' ? p.text : p.op === 'add' ? style.green(`{+${p.text}+}`) : style.red(`[-${p.text}-]`)))
    .join('')
    .replace(/\n/g, '\n    ');
}

function usageChange(a: TokenUsage, b: TokenUsage): string {
  return `${formatCount(a.totalTokens)} → ${formatCount(b.totalTokens)} tokens (${signed(b.totalTokens - a.totalTokens)}) · ${a.requests} → ${b.requests} model requests`;
}

function durationChange(a: number | undefined, b: number | undefined): string {
  return a === undefined || b === undefined ? '' : ` · ${formatDuration(a)} → ${formatDuration(b)}`;
}

function costText(u: TokenUsage): string {
  return describeCost(u) ?? '$0';
}

function signed(n: number): string {
  return `${n >= 0 ? '+' : '-'}${formatCount(Math.abs(n))}`;
}

function signedUsd(n: number): string {
  return `${n >= 0 ? '+' : '-'}${formatUsd(Math.abs(n))}`;
}
