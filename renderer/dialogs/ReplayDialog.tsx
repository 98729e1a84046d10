import { useEffect, useState } from 'react';
import type { HostResponse } from '../../shared/host-api';
import { host } from '../host/hostContext';
import { useDocumentStore } from '../stores/documentStore';
import { useRunStore } from '../stores/runStore';
import { useUiStore } from '../stores/uiStore';
import { FlowReplayDialog } from './FlowReplayDialog';
import { Modal } from './Modal';

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
  const [record, setRecord] = useState<RunRecord>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<string>();
  // Earlier tasks' outputs edited before replaying (a fork): task id → text.
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [editing, setEditing] = useState<string>();

  useEffect(() => {
    let live = true;
    host()
      .invoke('runs.get', { runId })
      .then((r) => live && setRecord(r))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [runId]);

  const tasks = record ? replayTasks(record, edits) : [];

  const replay = async (taskId: string) => {
    setBusy(taskId);
    setError(undefined);
    try {
      const path = record?.run.documentPath;
      if (path && /\.crew\.json$/.test(path) && useDocumentStore.getState().path !== path) void useDocumentStore.getState().open(path);
      // Only edits of tasks before the one replayed from apply; later tasks run again.
      const from = tasks.findIndex((t) => t.id === taskId);
      const applied = Object.fromEntries(Object.entries(edits).filter(([id]) => tasks.findIndex((t) => t.id === id) < from));
      await useRunStore.getState().replay(taskId, runId, applied);
      useUiStore.getState().setBottomTab('trace');
      onClose();
    } catch (e) {
      setBusy(undefined);
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  // A flow run forks from a method, its state edited.
  if (record?.run.kind === 'flow') return <FlowReplayDialog runId={runId} record={record} onClose={onClose} />;

  return (
    <Modal
      testId="replay-dialog"
      title="Replay from a task"
      subtitle={
        <>
          {record?.run.name ?? 'Run'} · <code className="dialog-code">{runId}</code>
        </>
      }
      onClose={onClose}
      width={620}
    >
      <div className="dialog-hint">
        Earlier tasks keep their stored outputs (edit one to fork the run: later tasks see your text as context); the chosen task and everything after it run again, as a new run.
      </div>
      {!record && !error && <div className="dialog-hint">Loading the run…</div>}
      <ol className="replay-list">
        {tasks.map((t, i) => (
          <li key={t.id} className="replay-item" data-testid="replay-item" data-task-id={t.id}>
            <span className="replay-index">{i + 1}</span>
            <div className="replay-main">
              <div className="replay-name">
                {t.name ?? t.id} {t.name && <code className="dialog-code">{t.id}</code>}
              </div>
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
            </div>
            <button
              className="btn small"
              data-testid="replay-edit"
              data-task-id={t.id}
              disabled={busy !== undefined}
              title="Edit this task's output as later tasks of the replay see it"
              onClick={() => setEditing(editing === t.id ? undefined : t.id)}
            >
              {editing === t.id ? 'Done' : 'Edit output'}
            </button>
            <button
              className="btn small"
              data-testid="replay-task"
              data-task-id={t.id}
              disabled={!t.replayable || busy !== undefined}
              title={t.replayable ? `Replay from “${t.name ?? t.id}”` : 'An earlier task has no stored output in this run'}
              onClick={() => void replay(t.id)}
            >
              {busy === t.id ? 'Starting…' : 'Replay from here'}
            </button>
          </li>
        ))}
      </ol>
      {error && <div className="dialog-error">{error}</div>}
    </Modal>
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
