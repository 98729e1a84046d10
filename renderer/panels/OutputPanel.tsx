import { selectPausedRunOf, useHumanRequestStore } from '../stores/humanRequestStore';
import { describeCost } from '../../shared/usage';
import { useRunStore } from '../stores/runStore';
import type { RunView, TaskResult } from '../stores/runView';
import '../styles/runs.css';
import { AnswerPausedButton } from './AnswerPausedButton';
import { formatDuration } from './formatTime';
import { TextBlock } from './trace/detail/DetailBlocks';
import { LiveDuration } from './trace/LiveDuration';

/** A flow's methods shown like tasks: latest output, status, calls, route. */
function methodResults(view: RunView): Record<string, TaskResult> {
  const out: Record<string, TaskResult> = {};
  for (const m of Object.values(view.methods)) {
    const span = view.spans.get(m.spanId);
    out[m.methodId] = {
      taskId: m.methodId,
      // Shown as "name  id" when they differ, else once.
      name: m.name !== m.methodId ? m.name : undefined,
      agentRole: [m.bodyType, m.calls > 1 ? `${m.calls} calls` : '', m.route ? `→ ${m.route}` : ''].filter(Boolean).join(' · '),
      status: m.status,
      raw: m.output,
      tokens: span?.tokens ?? 0,
      durationMs: m.durationMs,
      error: m.error,
    };
  }
  return out;
}

/** The shown run's final output, each task's (or flow method's) output, and the token totals. */
export function OutputPanel() {
  const view = useRunStore((s) => s.view);
  const loading = useRunStore((s) => s.loading);
  if (!view) return <div className="runs-empty">{loading ? 'Loading run…' : 'No run shown. Outputs appear here once a run has tasks done.'}</div>;
  const usage = view.tokenUsage;
  const flow = view.process === 'flow';
  const results = flow ? methodResults(view) : view.tasks;
  // A flow lists the methods that ran, in the order they first ran.
  const taskIds = flow ? Object.keys(results) : [...view.stepIds, ...Object.keys(view.tasks).filter((id) => !view.stepIds.includes(id))];

  return (
    <div className="output-panel" data-testid="output-panel">
      <div className="output-summary">
        <span className="run-badge" data-status={view.status}>
          {view.status}
        </span>
        <strong>{view.documentName ?? view.runId}</strong>
        <LiveDuration startedAt={view.startedAt} durationMs={view.durationMs} running={view.status === 'running'} />
        <span className="output-tokens" data-testid="output-tokens">
          <span>
            <b>{usage.totalTokens.toLocaleString('en-US')}</b> tokens
          </span>
          <span>{usage.promptTokens.toLocaleString('en-US')} prompt</span>
          <span>{usage.completionTokens.toLocaleString('en-US')} completion</span>
          {usage.cachedPromptTokens > 0 && <span>{usage.cachedPromptTokens.toLocaleString('en-US')} cached</span>}
          <span>{usage.requests} requests</span>
          {describeCost(usage) && <span data-testid="output-cost">{describeCost(usage)}</span>}
        </span>
      </div>
      <div className="output-scroll">
        <section className="output-final">
          <h3>Final output</h3>
          {view.output !== undefined ? (
            <TextBlock text={view.output} testId="final-output" />
          ) : view.error ? (
            <TextBlock text={view.error} label={view.status === 'cancelled' ? 'Cancelled' : 'Run failed'} tone={view.status === 'cancelled' ? 'warn' : 'err'} />
          ) : view.status === 'paused' ? (
            <PausedNote runId={view.runId} />
          ) : (
            <div className="runs-empty">The run has not finished yet.</div>
          )}
        </section>
        <section>
          <h3>{flow ? 'Methods' : 'Tasks'}</h3>
          {taskIds.map((id, i) => (
            <TaskOutput key={id} position={i + 1} taskId={id} task={results[id]} />
          ))}
        </section>
        {flow && view.flowState !== undefined && (
          <section>
            <h3>State</h3>
            <TextBlock text={JSON.stringify(view.flowState)} json testId="flow-state" />
          </section>
        )}
      </div>
    </div>
  );
}

function PausedNote({ runId }: { runId: string }) {
  const request = useHumanRequestStore(selectPausedRunOf(runId));
  return (
    <div className="runs-empty" data-testid="paused-note">
      The flow is paused, waiting for your feedback{request ? ` on ${request.methodName}` : ''}.{' '}
      <AnswerPausedButton runId={runId} testId="output-answer" />
    </div>
  );
}

function TaskOutput({ position, taskId, task }: { position: number; taskId: string; task?: TaskResult }) {
  const status = task?.status ?? 'pending';
  return (
    <article className="output-task" data-testid="task-output" data-task-id={taskId} data-status={status}>
      <header className="output-task-head">
        <span className="output-task-index">{position}</span>
        <span className="output-task-name">{task?.name ?? taskId}</span>
        {task?.name && <code className="output-task-id">{taskId}</code>}
        {task?.agentRole && <span className="output-task-agent">{task.agentRole}</span>}
        {task?.restored && <span className="output-tag">restored</span>}
        <span className="output-task-spacer" />
        {task?.tokens ? <span className="output-task-meta">{task.tokens.toLocaleString('en-US')} tok</span> : null}
        {task?.durationMs !== undefined && task.durationMs > 0 && <span className="output-task-meta">{formatDuration(task.durationMs)}</span>}
        <span className="runs-status" data-status={status === 'done' ? 'completed' : status}>
          <span className="runs-dot" />
          {status}
        </span>
      </header>
      {task?.raw !== undefined && <TextBlock text={task.raw} />}
      {task?.json !== undefined && <TextBlock label="JSON" text={JSON.stringify(task.json)} json />}
      {task?.outputFile && <div className="output-file">written to <code>{task.outputFile}</code></div>}
      {task?.error && <TextBlock label="Error" text={task.error} tone="err" />}
      {task?.skipReason && <div className="runs-empty">Skipped: {task.skipReason}</div>}
    </article>
  );
}
