import type { TestReport } from '../../../shared/training';

/** One task's scores across a test's iterations: the evaluator's and the checks' (null: no score that iteration). */
export interface TaskSeries {
  taskId: string;
  role: string;
  labels: string[];
  evaluator: (number | null)[];
  checks: (number | null)[];
  /** Whether the task declares deterministic checks at all. */
  hasChecks: boolean;
}

/** Splits a report's results into one series pair per task, in the order of the score table. */
export function taskSeries(report: TestReport): TaskSeries[] {
  const iterations = report.session.iterations;
  const labels = Array.from({ length: iterations }, (_, i) => `#${i + 1}`);
  return report.tasks.map((task) => {
    const evaluator = new Array<number | null>(iterations).fill(null);
    const checks = new Array<number | null>(iterations).fill(null);
    for (const r of report.results) {
      if (r.taskId !== task.taskId || r.iteration < 1 || r.iteration > iterations) continue;
      evaluator[r.iteration - 1] = r.score ?? null;
      checks[r.iteration - 1] = r.checkScore ?? null;
    }
    return { taskId: task.taskId, role: task.role, labels, evaluator, checks, hasChecks: checks.some((c) => c !== null) };
  });
}

/** Per task and iteration: the check score (null when the task has no checks or did not complete). */
export function checkScoreAt(report: TestReport, taskId: string, iteration: number): number | null {
  return report.results.find((r) => r.taskId === taskId && r.iteration === iteration)?.checkScore ?? null;
}

/** "7", "7.5", "—". */
export function formatScore(score: number | null | undefined): string {
  if (score === null || score === undefined) return '—';
  return Number.isInteger(score) ? String(score) : score.toFixed(1);
}
