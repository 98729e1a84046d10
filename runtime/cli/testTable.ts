import type { TestReport } from '../../shared/training';
import { formatCount, formatDuration } from './format';

const score = (value: number | null | undefined) => (value === null || value === undefined ? '—' : value.toFixed(1));

/**
 * The score table of a crew test: one row per task; a column per iteration (the evaluator's score),
 * the average, the deterministic-check score (independent of the evaluator), average duration, tokens.
 */
export function formatTestTable(report: TestReport): string {
  const header = ['Task', 'Role', ...Array.from({ length: report.session.iterations }, (_, i) => `#${i + 1}`), 'Avg', 'Checks', 'Duration', 'Tokens'];
  const rows = report.tasks.map((t) => [
    t.taskId,
    t.role,
    ...t.scores.map(score),
    score(t.averageScore),
    score(t.averageCheckScore),
    formatDuration(t.averageDurationMs),
    formatCount(t.totalTokens),
  ]);
  const overall = ['Overall', '', ...Array.from({ length: report.session.iterations }, () => ''), score(report.averageScore), score(report.averageCheckScore), '', formatCount(report.tasks.reduce((s, t) => s + t.totalTokens, 0))];
  const all = [header, ...rows, overall];
  // Every row has the header's columns.
  const widths = header.map((_, c) => Math.max(...all.map((r) => r[c]!.length)));
  // Text columns left-aligned, numbers right-aligned.
  const line = (r: string[]) => r.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ').trimEnd();
  const rule = widths.map((w) => '─'.repeat(w)).join('  ');
  return [line(header), rule, ...rows.map(line), rule, line(overall)].join('\n') + '\n';
}
