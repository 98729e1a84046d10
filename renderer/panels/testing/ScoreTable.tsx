import type { TestReport } from '../../../shared/training';
import { formatDuration } from '../formatTime';
import { formatCompact } from '../trace/formatCount';
import { checkScoreAt, formatScore } from './testChartData';

/**
 * A test's score table: a row per task, the evaluator's score per iteration (the check score under it
 * when the task has checks), the averages, the deterministic-check score, duration and tokens.
 */
export function ScoreTable({ report }: { report: TestReport }) {
  const iterations = Array.from({ length: report.session.iterations }, (_, i) => i + 1);
  return (
    <div className="test-table-scroll">
      <table className="test-table" data-testid="test-score-table">
        <caption className="test-caption">Scores per task and iteration (1–10)</caption>
        <thead>
          <tr>
            <th scope="col">Task</th>
            {iterations.map((i) => (
              <th key={i} scope="col" className="num">
                #{i}
              </th>
            ))}
            <th scope="col" className="num">
              Average
            </th>
            <th scope="col" className="num" title="Fraction of the task's deterministic checks that passed × 10, averaged">
              Checks
            </th>
            <th scope="col" className="num">
              Avg duration
            </th>
            <th scope="col" className="num">
              Tokens
            </th>
          </tr>
        </thead>
        <tbody>
          {report.tasks.map((task) => (
            <tr key={task.taskId} data-testid="test-score-row" data-task-id={task.taskId}>
              <th scope="row">
                <code>{task.taskId}</code>
                <span className="test-role">{task.role}</span>
              </th>
              {iterations.map((i) => {
                const check = checkScoreAt(report, task.taskId, i);
                return (
                  <td key={i} className="num" data-testid="test-score-cell">
                    <span className="test-score" data-band={band(task.scores[i - 1])}>
                      {formatScore(task.scores[i - 1])}
                    </span>
                    {check !== null && <span className="test-check-cell" title="check score">✓ {formatScore(check)}</span>}
                  </td>
                );
              })}
              <td className="num test-average" data-testid="test-average">
                {formatScore(task.averageScore)}
              </td>
              <td className="num" data-testid="test-check-average">
                {formatScore(task.averageCheckScore)}
              </td>
              <td className="num">{formatDuration(task.averageDurationMs)}</td>
              <td className="num">{formatCompact(task.totalTokens)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Crew</th>
            {iterations.map((i) => (
              <td key={i} />
            ))}
            <td className="num test-average" data-testid="test-crew-average">
              {formatScore(report.averageScore)}
            </td>
            <td className="num" data-testid="test-crew-check-average">
              {formatScore(report.averageCheckScore)}
            </td>
            <td />
            <td className="num">{formatCompact(report.tasks.reduce((n, t) => n + t.totalTokens, 0))}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

function band(score: number | null | undefined): 'none' | 'low' | 'mid' | 'high' {
  if (score === null || score === undefined) return 'none';
  return score >= 8 ? 'high' : score >= 5 ? 'mid' : 'low';
}
