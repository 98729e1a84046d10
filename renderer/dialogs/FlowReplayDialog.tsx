import { useCallback, useState } from 'react';
import type { HostResponse } from '../../shared/host-api';
import { host } from '../host/hostContext';
import { fetchRunEvents } from '../stores/fetchRunEvents';
import { useRunStore } from '../stores/runStore';
import { useUiStore } from '../stores/uiStore';
import { flowForkPoints, stateText, stateValue, type FlowForkPoint } from './flowForkPoints';
import { ReplayModal } from './replay/ReplayModal';
import { ReplayStep } from './replay/ReplayStep';
import { useReplaySteps } from './replay/useReplaySteps';

type RunRecord = HostResponse<'runs.get'>;

/**
 * Forks a flow run from a method: the methods before it keep their recorded outcomes (no model call),
 * the state it starts with can be edited field by field, and it and everything after it run again.
 */
export function FlowReplayDialog({ runId, record, onClose }: { runId: string; record: RunRecord; onClose(): void }) {
  const load = useCallback(() => fetchRunEvents(host(), runId, 0).then((events) => flowForkPoints(record.run.document, record.run.inputs, events)), [runId, record]);
  const { loaded: points, error, busy, editing, toggleEditing, start } = useReplaySteps(load, onClose);
  // Edited state fields per method (method id → field → text as typed).
  const [edits, setEdits] = useState<Record<string, Record<string, string>>>({});

  const changed = (p: FlowForkPoint): Record<string, unknown> =>
    Object.fromEntries(Object.entries(edits[p.methodId] ?? {}).filter(([k, text]) => text !== stateText(p.state[k])).map(([k, text]) => [k, stateValue(text)]));

  const replay = (p: FlowForkPoint) =>
    start(p.methodId, async () => {
      const state = changed(p);
      const { runId: newRunId } = await host().invoke('runs.replay', { runId, fromMethodId: p.methodId, ...(Object.keys(state).length > 0 ? { state } : {}) });
      void useRunStore.getState().refreshRuns();
      useUiStore.getState().setBottomTab('trace');
      // The fork is shown live on its flow, as a run started from the canvas is: the run first, then its document.
      const path = record.run.documentPath;
      await useRunStore.getState().openRun(newRunId, path && /\.flow\.json$/.test(path) ? path : undefined);
    });

  return (
    <ReplayModal
      title="Fork from a method"
      name={record.run.name}
      runId={runId}
      width={660}
      hint="Methods that ran before the chosen one keep their recorded outcomes (no model is called); edit the state it starts with to fork the run. It and everything after it run again, as a new run."
      loading={!points}
      error={error}
      onClose={onClose}
    >
      {(points ?? []).map((p, i) => {
        const edited = Object.keys(changed(p));
        return (
          <ReplayStep
            key={p.methodId}
            id={p.methodId}
            idAttribute="data-method-id"
            index={i}
            className="replay-item replay-item-flow"
            label={p.name}
            showId={p.name !== p.methodId}
            editing={editing === p.methodId}
            canEdit={p.started}
            editLabel="Edit state"
            editTitle="Edit the state this method starts with"
            onToggleEdit={() => toggleEditing(p.methodId)}
            canReplay={p.started}
            replayTitle={p.started ? `Fork from “${p.name}”` : 'This method did not run in this run'}
            busy={busy}
            onReplay={() => void replay(p)}
          >
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
          </ReplayStep>
        );
      })}
    </ReplayModal>
  );
}
