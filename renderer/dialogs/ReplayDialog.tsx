import { useCallback, useState } from 'react';
import type { HostResponse } from '../../shared/host-api';
import { host } from '../host/hostContext';
import { useDocumentStore } from '../stores/documentStore';
import { useRunStore } from '../stores/runStore';
import { useUiStore } from '../stores/uiStore';
import { FlowReplayDialog } from './FlowReplayDialog';
import { ReplayModal } from './replay/ReplayModal';
import { ReplayStep } from './replay/ReplayStep';
import { useReplaySteps } from './replay/useReplaySteps';

type RunRecord = HostResponse<'runs.get'>;
interface ReplayTask {
  id: string;
  name?: string;
  agent?: string;
  output?: RunRecord['taskOutputs'][number];
  /** Every earlier task has a stored output, so the replay can start here. */
  replayable: boolean;
}

/** Lists a run's tasks with their stored outputs and replays the run from the chosen one (a flow run: FlowReplayDialog). */
export function ReplayDialog({ runId, onClose }: { runId: string; onClose(): void }) {
  const load = useCallback(() => host().invoke('runs.get', { runId }), [runId]);
  const { loaded: record, error, busy, editing, toggleEditing, start } = useReplaySteps(load, onClose);
  // Earlier tasks' outputs edited before replaying (a fork): task id → text.
  const [edits, setEdits] = useState<Record<string, string>>({});

  const tasks = record ? replayTasks(record, edits) : [];

  const replay = (taskId: string) =>
    start(taskId, async () => {
      const path = record?.run.documentPath;
      if (path && /\.crew\.json$/.test(path) && useDocumentStore.getState().path !== path) void useDocumentStore.getState().open(path);
      // Only edits of tasks before the one replayed from apply; later tasks run again.
      const from = tasks.findIndex((t) => t.id === taskId);
      const applied = Object.fromEntries(Object.entries(edits).filter(([id]) => tasks.findIndex((t) => t.id === id) < from));
      await useRunStore.getState().replay(taskId, runId, applied);
      useUiStore.getState().setBottomTab('trace');
    });

  // A flow run forks from a method, its state edited.
  if (record?.run.kind === 'flow') return <FlowReplayDialog runId={runId} record={record} onClose={onClose} />;

  return (
    <ReplayModal
      title="Replay from a task"
      name={record?.run.name ?? 'Run'}
      runId={runId}
      width={620}
      hint="Earlier tasks keep their stored outputs (edit one to fork the run: later tasks see your text as context); the chosen task and everything after it run again, as a new run."
      loading={!record}
      error={error}
      onClose={onClose}
    >
      {tasks.map((t, i) => (
        <ReplayStep
          key={t.id}
          id={t.id}
          idAttribute="data-task-id"
          index={i}
          className="replay-item"
          label={t.name ?? t.id}
          showId={Boolean(t.name)}
          editing={editing === t.id}
          canEdit
          editLabel="Edit output"
          editTitle="Edit this task's output as later tasks of the replay see it"
          onToggleEdit={() => toggleEditing(t.id)}
          canReplay={t.replayable}
          replayTitle={t.replayable ? `Replay from “${t.name ?? t.id}”` : 'An earlier task has no stored output in this run'}
          busy={busy}
          onReplay={() => void replay(t.id)}
        >
          {editing === t.id ? (
            <textarea
              className="settings-input mono"
              data-testid="replay-edit-text"
              aria-label={`Output of ${t.name ?? t.id} for the replay`}
              rows={5}
              value={edits[t.id] ?? t.output?.raw ?? ''}
              onChange={(e) => setEdits({ ...edits, [t.id]: e.target.value })}
            />
          ) : (
            <div className="replay-output">
              {edits[t.id] !== undefined ? <em>edited: </em> : null}
              {edits[t.id]?.slice(0, 160) ?? (t.output ? (t.output.skipped ? 'skipped' : t.output.raw.slice(0, 160) || '(empty output)') : 'no stored output')}
              {t.agent ? ` · ${t.agent}` : ''}
            </div>
          )}
        </ReplayStep>
      ))}
    </ReplayModal>
  );
}

function replayTasks(record: RunRecord, edits: Record<string, string>): ReplayTask[] {
  const doc = record.run.document as { tasks?: { id?: unknown; name?: unknown; agentId?: unknown }[] } | null;
  const outputs = new Map(record.taskOutputs.map((o) => [o.taskId, o]));
  const list = Array.isArray(doc?.tasks) ? doc.tasks.filter((t) => typeof t?.id === 'string') : [];
  let earlierStored = true;
  return list.map((t) => {
    const id = t.id as string;
    const output = outputs.get(id);
    const task: ReplayTask = { id, name: typeof t.name === 'string' ? t.name : undefined, agent: output?.agentRole, output, replayable: earlierStored };
    earlierStored = earlierStored && (output !== undefined || edits[id] !== undefined);
    return task;
  });
}
