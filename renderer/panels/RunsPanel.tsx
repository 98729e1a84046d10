import { replayStart } from '../../shared/events';
import { useEffect, useState } from 'react';
import { host } from '../host/hostContext';
import type { HostRunSummary } from '../../shared/host-api';
import { ReplayDialog } from '../dialogs/ReplayDialog';
import { RunCompareDialog } from '../dialogs/RunCompareDialog';
import { describeCost } from '../../shared/usage';
import { selectShownStatus, useRunStore } from '../stores/runStore';
import { InterruptedRunActions } from './InterruptedRunActions';
import { useUiStore } from '../stores/uiStore';
import '../styles/flow-run.css';
import '../styles/runs.css';
import { AnswerPausedButton } from './AnswerPausedButton';
import { formatDuration, formatRelativeTime } from './formatTime';
import { formatCompact } from './trace/formatCount';

/** Run history: status, crew, start, duration, tokens, replay origin; open, replay from a task, stop. */
export function RunsPanel() {
  const runs = useRunStore((s) => s.runs);
  const teamServer = useTeamServer();
  const loaded = useRunStore((s) => s.runsLoaded);
  const error = useRunStore((s) => s.runsError);
  const [replayOf, setReplayOf] = useState<string>();
  // Runs ticked for Compare (at most two; ticking a third drops the oldest tick).
  const [picked, setPicked] = useState<string[]>([]);
  const [comparing, setComparing] = useState<[string, string]>();
  const togglePick = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id].slice(-2)));
  const comparePicked = ([first, second]: string[]) => {
    if (first !== undefined && second !== undefined) setComparing([first, second]);
  };

  return (
    <div className="runs-panel" data-testid="runs-panel">
      {error && <div className="banner-error" data-testid="runs-error">{error}</div>}
      {loaded && runs.length === 0 && !error && <div className="runs-empty">No runs yet. Start one with ▶ Run.</div>}
      {runs.length > 0 && (
        <div className="runs-compare-bar">
          <button className="btn small" data-testid="runs-compare" disabled={picked.length !== 2} onClick={() => comparePicked(picked)}>
            Compare{picked.length ? ` (${picked.length}/2)` : ''}
          </button>
          <span className="settings-help">{picked.length === 2 ? 'Two runs picked.' : 'Tick two runs to compare them.'}</span>
        </div>
      )}
      {runs.length > 0 && (
        <div className="runs-scroll">
          <table className="runs-table">
            <thead>
              <tr>
                <th aria-label="Compare" />
                <th className="runs-col-status">Status</th>
                <th>Crew or flow</th>
                <th>Started</th>
                <th className="num">Duration</th>
                <th className="num">Tokens</th>
                <th>Run</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <RunRow key={run.id} run={run} teamServer={teamServer} onReplay={() => setReplayOf(run.id)} picked={picked.includes(run.id)} onPick={() => togglePick(run.id)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {replayOf && <ReplayDialog runId={replayOf} onClose={() => setReplayOf(undefined)} />}
      {comparing && <RunCompareDialog runA={comparing[0]} runB={comparing[1]} onClose={() => setComparing(undefined)} />}
    </div>
  );
}

function RunRow({ run, teamServer, onReplay, picked, onPick }: { run: HostRunSummary; teamServer?: string; onReplay(): void; picked: boolean; onPick(): void }) {
  const shown = useRunStore((s) => s.runId === run.id);
  // The shown run's live status is newer than the list's.
  const liveStatus = useRunStore((s) => {
    const status = selectShownStatus(s);
    return s.runId === run.id && status && status !== 'pending' ? status : undefined;
  });
  const status = liveStatus ?? run.status;
  const open = () => {
    useUiStore.getState().setBottomTab('trace');
    void useRunStore.getState().openRun(run.id, run.documentPath);
  };
  return (
    <tr className="runs-row" data-testid="runs-row" data-run-id={run.id} data-status={status} aria-selected={shown} onClick={open}>
      <td onClick={(e) => e.stopPropagation()}>
        <input type="checkbox" data-testid="runs-pick" aria-label={`Pick ${run.id} to compare`} checked={picked} onChange={onPick} />
      </td>
      <td className="runs-col-status">
        <span className="runs-status" data-status={status}>
          <span className="runs-dot" />
          {status}
        </span>
      </td>
      <td>
        <div className="runs-name">
          <span>
            {run.name}
            {run.kind === 'flow' && <span className="runs-kind">flow</span>}
            {run.team && (
              <span className="runs-kind runs-team" data-testid="runs-team-mark" title={`On the team server ${run.team.server} (${run.team.status})`}>
                team
              </span>
            )}
            {run.offlineFrom && (
              <span className="runs-kind" data-testid="runs-offline-mark" title={`Offline re-run: model replies from ${run.offlineFrom}`}>
                offline
              </span>
            )}
          </span>
          {run.error && (
            <span className="runs-error" title={run.error}>
              {run.error}
            </span>
          )}
        </div>
      </td>
      <td title={new Date(run.startedAt).toLocaleString()}>{formatRelativeTime(run.startedAt)}</td>
      <td className="num">{run.durationMs !== undefined ? formatDuration(run.durationMs) : status === 'running' ? '…' : ''}</td>
      <td className="num" title={`${run.tokenUsage.totalTokens.toLocaleString('en-US')} tokens · ${run.tokenUsage.requests} requests${describeCost(run.tokenUsage) ? ` · ${describeCost(run.tokenUsage)}` : ''}`}>
        {formatCompact(run.tokenUsage.totalTokens)}
      </td>
      <td className="runs-id">
        <code>{run.id}</code>
        {run.replayOf && (
          <button
            className="runs-replay-of"
            title={`Replay of ${run.replayOf.runId} from ${replayStart(run.replayOf)}`}
            onClick={(e) => {
              e.stopPropagation();
              void useRunStore.getState().show(run.replayOf!.runId);
            }}
          >
            ↻ from {'fromTaskId' in run.replayOf ? run.replayOf.fromTaskId : run.replayOf.fromMethodId}
          </button>
        )}
      </td>
      <td className="runs-actions" onClick={(e) => e.stopPropagation()}>
        {run.team ? (
          <span className="settings-help">{run.team.status}</span>
        ) : status === 'paused' ? (
          <AnswerPausedButton runId={run.id} />
        ) : status === 'running' ? (
          <button className="btn small danger" data-testid="runs-cancel" onClick={() => void useRunStore.getState().cancel(run.id)}>
            Stop
          </button>
        ) : status === 'interrupted' ? (
          <InterruptedRunActions runId={run.id} onError={(message) => useRunStore.setState({ runsError: message })} />
        ) : (
          <>
            {run.documentPath && (
              <button
                className="btn small"
                data-testid="runs-offline"
                title="Run the document as it is now, answering every model call from this run's recording (no model is called)"
                onClick={() => {
                  useUiStore.getState().setBottomTab('trace');
                  void useRunStore
                    .getState()
                    .rerunOffline(run.id)
                    .catch((e: unknown) => useRunStore.setState({ runsError: `Could not re-run it offline: ${e instanceof Error ? e.message : String(e)}` }));
                }}
              >
                Re-run offline
              </button>
            )}
            {teamServer && <ShareRunButton runId={run.id} server={teamServer} />}
            <button className="btn small" data-testid="runs-replay" onClick={onReplay} title={run.kind === 'flow' ? 'Fork the run from a method, its state edited' : 'Replay from a task, earlier outputs edited'}>
              Replay from…
            </button>
          </>
        )}
      </td>
    </tr>
  );
}


/** The workspace's team server, when one is set up (Settings → Team server). */
function useTeamServer(): string | undefined {
  const [server, setServer] = useState<string>();
  const runs = useRunStore((s) => s.runs);
  useEffect(() => {
    let live = true;
    host()
      .invoke('team.status', {})
      .then((status) => live && setServer(status.configured ? status.server : undefined))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [runs]);
  return server;
}

/** *Share run*: uploads this local run to the team server. */
function ShareRunButton({ runId, server }: { runId: string; server: string }) {
  const [state, setState] = useState<'idle' | 'sharing' | 'shared'>('idle');
  return (
    <button
      className="btn small"
      data-testid="runs-share"
      disabled={state !== 'idle'}
      title={`Upload this run (its record, events and outputs) to ${server} for your team`}
      onClick={() => {
        setState('sharing');
        useRunStore
          .getState()
          .share(runId)
          .then(
            () => setState('shared'),
            (e: unknown) => {
              setState('idle');
              useRunStore.setState({ runsError: `Could not share ${runId}: ${e instanceof Error ? e.message : String(e)}` });
            },
          );
      }}
    >
      {state === 'shared' ? 'Shared' : state === 'sharing' ? 'Sharing…' : 'Share run'}
    </button>
  );
}
