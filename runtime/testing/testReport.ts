import type { TestReport, TestResult, TestSession, TestTaskSummary } from '../../shared/training';

function average(values: number[]): number | null {
  return values.length === 0 ? null : Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100;
}

/** Per task (in task order): its score in each iteration, the averages, durations and tokens. */
export function summariseTest(session: TestSession, results: TestResult[]): TestReport {
  const order: string[] = [];
  const byTask = new Map<string, TestResult[]>();
  for (const r of [...results].sort((a, b) => a.index - b.index || a.iteration - b.iteration)) {
    if (!byTask.has(r.taskId)) {
      byTask.set(r.taskId, []);
      order.push(r.taskId);
    }
    byTask.get(r.taskId)!.push(r);
  }
  const tasks: TestTaskSummary[] = order.map((taskId) => {
    // A task is in order once it has a result.
    const own = byTask.get(taskId)!;
    const scores = Array.from({ length: session.iterations }, (_, i) => own.find((r) => r.iteration === i + 1)?.score ?? null);
    return {
      taskId,
      role: own[0]!.role,
      scores,
      averageScore: average(scores.filter((s): s is number => s !== null)),
      averageCheckScore: average(own.map((r) => r.checkScore).filter((s): s is number => s !== undefined)),
      averageDurationMs: Math.round(own.reduce((sum, r) => sum + r.durationMs, 0) / own.length),
      totalTokens: own.reduce((sum, r) => sum + r.tokenUsage.totalTokens, 0),
    };
  });
  return {
    session,
    results,
    tasks,
    averageScore: average(tasks.map((t) => t.averageScore).filter((s): s is number => s !== null)),
    averageCheckScore: average(tasks.map((t) => t.averageCheckScore).filter((s): s is number => s !== null)),
  };
}
