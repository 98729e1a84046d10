import { useCallback, useEffect, useMemo, useState } from 'react';
import { describeCost } from '../../shared/usage';
import { selectShownStatus, selectShownSummary, useRunStore } from '../stores/runStore';
import { InterruptedRunActions } from './InterruptedRunActions';
import { AnswerPausedButton } from './AnswerPausedButton';
import { StubsReachedBadge } from './StubsReachedBadge';
import { usePanelLayoutStore } from '../stores/panelLayoutStore';
import { useUiStore } from '../stores/uiStore';
import '../styles/trace.css';
import { FilterChip } from './trace/FilterChip';
import { filterRoots, flattenSpans } from './trace/flattenSpans';
import { formatCompact } from './trace/formatCount';
import { LiveDuration } from './trace/LiveDuration';
import { timelineStep } from './trace/timelineStep';
import { SpanDetail } from './trace/SpanDetail';
import { TraceTree } from './trace/TraceTree';

const NO_COLLAPSED: ReadonlySet<string> = new Set();

/**
 * The live trace of the shown run: a virtualised span tree (filtered by the canvas selection) with a
 * waterfall, and the selected span's details beside it.
 */
export function TracePanel() {
  const view = useRunStore((s) => s.view);
  const loading = useRunStore((s) => s.loading);
  const error = useRunStore((s) => s.error);
  const runId = useRunStore((s) => s.runId);
  // `interrupted` for a run whose process died (its view alone reads running).
  const status = useRunStore(selectShownStatus);
  const storedError = useRunStore((s) => selectShownSummary(s)?.error);
  const [actionError, setActionError] = useState<string>();
  const selectedNodeIds = useUiStore((s) => s.selectedNodeIds);
  const spanId = useUiStore((s) => s.spanId);
  const detailMaximised = usePanelLayoutStore((s) => s.detailMaximised);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(NO_COLLAPSED);
  const [follow, setFollow] = useState(true);

  useEffect(() => {
    setCollapsed(NO_COLLAPSED);
    setFollow(true);
    setActionError(undefined);
  }, [runId]);

  const filtered = useMemo(() => (view ? filterRoots(view, selectedNodeIds) : undefined), [view, selectedNodeIds]);
  const rows = useMemo(() => (view ? flattenSpans(view, filtered ?? view.rootIds, collapsed) : []), [view, filtered, collapsed]);

  const onSelect = useCallback((id: string) => {
    // Looking at a span stops the view from jumping to the newest one.
    setFollow(false);
    useUiStore.getState().selectSpan(id);
  }, []);
  const stopFollowing = useCallback(() => setFollow(false), []);
  const onToggle = useCallback((id: string, expand?: boolean) => {
    setCollapsed((prev) => {
      const next = new Set(prev);
      const open = expand ?? next.has(id);
      if (open) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  if (!runId) {
    return (
      <div className="trace-empty" data-testid="trace-empty">
        <strong>No run shown.</strong> Run it with ▶ Run, or open a past run from the Runs tab.
      </div>
    );
  }
  if (error) return <div className="banner-error">Could not load run {runId}: {error}</div>;
  if (!view) return <div className="trace-empty">{loading ? 'Loading run…' : 'No events yet.'}</div>;

  const selected = spanId ? view.spans.get(spanId) : undefined;
  const [firstRoot] = view.rootIds;
  const runStart = view.startedAt ?? (firstRoot !== undefined ? view.spans.get(firstRoot)?.start : undefined) ?? 0;
  const elapsed = Math.max(1, (view.endedAt ?? view.lastTs ?? runStart) - runStart);
  // While the run goes on, the timeline's scale grows in steps (each ~19% longer) rather than with every
  // event, so the rows in view are not all redrawn every frame; the finished run gets its exact length.
  const runLength = view.endedAt === undefined ? timelineStep(elapsed) : elapsed;
  // A run whose process died says why from its stored summary (its events stop before any error).
  const shownError = actionError ?? (status === 'interrupted' ? storedError : view.error);
  const collapseAll = () => {
    const all = new Set<string>();
    for (const span of view.spans.values()) if (span.children.length > 0 && span.kind !== 'run') all.add(span.id);
    setCollapsed(all);
  };

  return (
    <div className="trace-panel" data-testid="trace-panel" data-run-id={view.runId} data-run-status={status}>
      <div className="trace-toolbar">
        <span className="run-badge" data-status={status}>
          {status}
        </span>
        <StubsReachedBadge testId="trace-run-stubs" />
        <span className="trace-run-name">{view.documentName ?? view.runId}</span>
        <code className="trace-run-id" title={view.runId}>{view.runId}</code>
        <LiveDuration startedAt={view.startedAt} durationMs={view.durationMs} running={status === 'running'} />
        <span className="trace-run-tokens" title={`${view.tokenUsage.totalTokens.toLocaleString('en-US')} tokens`}>
          {formatCompact(view.tokenUsage.totalTokens)} tok
        </span>
        {describeCost(view.tokenUsage) && (
          <span className="trace-run-tokens trace-run-cost" data-testid="trace-run-cost" title={describeCost(view.tokenUsage)}>
            {describeCost(view.tokenUsage)}
          </span>
        )}
        {filtered && <FilterChip view={view} nodeIds={selectedNodeIds} />}
        <span className="trace-toolbar-spacer" />
        <span className="trace-count">
          {loading ? 'loading events… · ' : ''}
          {rows.length.toLocaleString('en-US')} rows
        </span>
        <button className="btn ghost small" onClick={() => setCollapsed(NO_COLLAPSED)}>
          Expand all
        </button>
        <button className="btn ghost small" onClick={collapseAll}>
          Collapse all
        </button>
        {status === 'running' && (
          <button className="btn ghost small" aria-pressed={follow} title="Keep the newest span in view" onClick={() => setFollow(!follow)}>
            {follow ? '● Following' : 'Follow'}
          </button>
        )}
        {status === 'paused' && <AnswerPausedButton runId={view.runId} testId="trace-answer" />}
        {status === 'interrupted' && <InterruptedRunActions runId={view.runId} onError={setActionError} />}
        {status !== 'running' && status !== 'paused' && status !== 'interrupted' && (
          <button className="btn ghost small" data-testid="trace-new-run" title="Clear this run from the trace and the canvas" onClick={() => void useRunStore.getState().show(undefined)}>
            New run
          </button>
        )}
        {status === 'running' && (
          <button className="btn danger small" data-testid="trace-stop" onClick={() => void useRunStore.getState().cancel()}>
            Stop
          </button>
        )}
      </div>
      {shownError && status !== 'completed' && (
        <div className="trace-run-error" data-testid="run-error" data-status={status}>
          {shownError}
        </div>
      )}
      <div className="trace-body" data-detail={selected ? (detailMaximised ? 'maximised' : 'open') : 'closed'}>
        <div className="trace-tree-column">
          <div className="trace-columns" aria-hidden>
            <span className="trace-columns-name">Span</span>
            <span className="trace-tokens">Tokens</span>
            <span className="trace-duration">Time</span>
            <span className="trace-waterfall-head">Timeline</span>
          </div>
          {rows.length === 0 ? (
            <div className="trace-empty">{filtered ? 'Nothing in this run for the selected node.' : 'Waiting for the first event…'}</div>
          ) : (
            <TraceTree
              rows={rows}
              selectedId={spanId}
              runStart={runStart}
              runLength={runLength}
              follow={follow && status === 'running' && !loading}
              onUnfollow={stopFollowing}
              onSelect={onSelect}
              onToggle={onToggle}
            />
          )}
        </div>
        {selected && <SpanDetail span={selected} view={view} onClose={() => useUiStore.getState().selectSpan(undefined)} />}
      </div>
    </div>
  );
}
