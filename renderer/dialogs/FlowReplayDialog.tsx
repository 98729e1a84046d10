import { useEffect, useState } from 'react';
import type { HostResponse } from '../../shared/host-api';
import { host } from '../host/hostContext';
import { fetchRunEvents } from '../stores/fetchRunEvents';
import { useRunStore } from '../stores/runStore';
import { useUiStore } from '../stores/uiStore';
import { flowForkPoints, stateText, stateValue, type FlowForkPoint } from './flowForkPoints';
import { Modal } from './Modal';

type RunRecord = HostResponse<'runs.get'>;

/**
 * Forks a flow run from a method: the methods before it keep their recorded outcomes (no model call),
 * the state it starts with can be edited field by field, and it and everything after it run again.
 */
export function FlowReplayDialog({ runId, record, onClose }: { runId: string; record: RunRecord; onClose(): void }) {
  const [points, setPoints] = useState<FlowForkPoint[]>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<string>();
  const [editing, setEditing] = useState<string>();
  // Edited state fields per method (method id → field → text as typed).
  const [edits, setEdits] = useState<Record<string, Record<string, string>>>({});

  useEffect(() => {
    let live = true;
    fetchRunEvents(host(), runId, 0)
      .then((events) => live && setPoints(flowForkPoints(record.run.document, record.run.inputs, events)))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [runId, record]);

  const changed = (p: FlowForkPoint): Record<string, unknown> =>
    Object.fromEntries(Object.entries(edits[p.methodId] ?? {}).filter(([k, text]) => text !== stateText(p.state[k])).map(([k, text]) => [k, stateValue(text)]));

  const replay = async (p: FlowForkPoint) => {
    setBusy(p.methodId);
    setError(undefined);
    try {
      const state = changed(p);
      const { runId: newRunId } = await host().invoke('runs.replay', { runId, fromMethodId: p.methodId, ...(Object.keys(state).length > 0 ? { state } : {}) });
      void useRunStore.getState().refreshRuns();
      useUiStore.getState().setBottomTab('trace');
      // The fork is shown live on its flow, as a run started from the canvas is: the run first, then its document.
      const path = record.run.documentPath;
      await useRunStore.getState().openRun(newRunId, path && /\.flow\.json$/.test(path) ? path : undefined);
      onClose();
    } catch (e) {
      setBusy(undefined);
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Modal
      testId="replay-dialog"
      title="Fork from a method"
      subtitle={
        <>
          {record.run.name} · <code className="dialog-code">{runId}</code>
        </>
      }
      onClose={onClose}
      width={660}
    >
      <div className="dialog-hint">
        Methods that ran before the chosen one keep their recorded outcomes (no model is called); edit the state it starts with to fork the run. It and everything after it run again, as a new run.
      </div>
      {!points && !error && <div className="dialog-hint">Loading the run…</div>}
      <ol className="replay-list">
        {(points ?? []).map((p, i) => {
          const edited = Object.keys(changed(p));
          return (
            <li key={p.methodId} className="replay-item replay-item-flow" data-testid="replay-item" data-method-id={p.methodId}>
              <span className="replay-index">{i + 1}</span>
              <div className="replay-main">
                <div className="replay-name">
                  {p.name} {p.name !== p.methodId && <code className="dialog-code">{p.methodId}</code>}
                </div>
                <div className="replay-output">
                  {!p.started ? 'did not run' : edited.length > 0 ? <em>state edited: {edited.join(', ')}</em> : p.output !== undefined ? p.output.slice(0, 160) || '(empty output)' : 'did not complete'}
                </div>
                {editing === p.methodId && (
                  <div className="replay-state" data-testid="replay-state">
                    {Object.keys(p.state).length === 0 && <div className="dialog-hint">The state is empty here.</div>}
                    {Object.entries(p.state).map(([key, value]) => (
                      <label key={key} className="replay-state-field">
                        <span className="replay-state-key">{key}</span>
                        <input
                          className="settings-input mono"
                          data-testid="replay-state-value"
                          data-key={key}
                          aria-label={`State field ${key} when ${p.name} starts`}
                          value={edits[p.methodId]?.[key] ?? stateText(value)}
                          onChange={(e) => setEdits({ ...edits, [p.methodId]: { ...(edits[p.methodId] ?? {}), [key]: e.target.value } })}
                        />
                      </label>
                    ))}
                    <div className="dialog-hint">A value that reads as JSON (3, true, ["a"]) is that value; anything else is text.</div>
                  </div>
                )}
              </div>
              <button
                className="btn small"
                data-testid="replay-edit"
                data-method-id={p.methodId}
                disabled={!p.started || busy !== undefined}
                title="Edit the state this method starts with"
                onClick={() => setEditing(editing === p.methodId ? undefined : p.methodId)}
              >
                {editing === p.methodId ? 'Done' : 'Edit state'}
              </button>
              <button
                className="btn small"
                data-testid="replay-task"
                data-method-id={p.methodId}
                disabled={!p.started || busy !== undefined}
                title={p.started ? `Fork from “${p.name}”` : 'This method did not run in this run'}
                onClick={() => void replay(p)}
              >
                {busy === p.methodId ? 'Starting…' : 'Replay from here'}
              </button>
            </li>
          );
        })}
      </ol>
      {error && <div className="dialog-error">{error}</div>}
    </Modal>
  );
}
