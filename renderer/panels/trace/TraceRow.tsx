import { memo } from 'react';
import type { SpanStatus } from '../../stores/runView';
import { formatDuration } from '../formatTime';
import type { TraceRow as Row } from './flattenSpans';
import { formatCompact } from './formatCount';
import { SpanIcon } from './SpanIcon';

export const ROW_HEIGHT = 24;

const STATUS_TEXT: Partial<Record<SpanStatus, string>> = {
  failed: 'failed',
  cancelled: 'cancelled',
  skipped: 'skipped',
  waiting: 'waiting',
  paused: 'paused',
  blocked: 'blocked',
  cached: 'cached',
  discarded: 'discarded',
};

interface TraceRowProps {
  row: Row;
  selected: boolean;
  /** Run start and length, for the waterfall bar. */
  runStart: number;
  runLength: number;
  /** Offset of the row in the virtual list. */
  top: number;
  onSelect(spanId: string): void;
  onToggle(spanId: string): void;
}

/** One span of the trace tree: twisty, icon, label, status, tokens, duration and a waterfall bar. */
export const TraceRow = memo(function TraceRow({ row, selected, runStart, runLength, top, onSelect, onToggle }: TraceRowProps) {
  const { span, level, hasChildren, expanded } = row;
  const duration = span.durationMs ?? (span.end === undefined ? undefined : span.end - span.start);
  const left = runLength > 0 ? Math.min(100, ((span.start - runStart) / runLength) * 100) : 0;
  const width = runLength > 0 ? Math.max(0.6, (((span.end ?? runStart + runLength) - span.start) / runLength) * 100) : 100;
  return (
    <div
      role="treeitem"
      aria-level={level + 1}
      aria-selected={selected}
      aria-expanded={hasChildren ? expanded : undefined}
      className="trace-row"
      data-testid="trace-row"
      data-kind={span.kind}
      data-status={span.status}
      data-span-id={span.id}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onClick={() => onSelect(span.id)}
    >
      <span className="trace-indent" style={{ width: level * 14 }} />
      {hasChildren ? (
        <button
          className="trace-twisty"
          aria-label={expanded ? `Collapse ${span.label}` : `Expand ${span.label}`}
          tabIndex={-1}
          onClick={(e) => {
            e.stopPropagation();
            onToggle(span.id);
          }}
        >
          <svg viewBox="0 0 10 10" width="9" height="9" aria-hidden style={{ transform: expanded ? 'rotate(90deg)' : undefined }}>
            <path d="M3 1.5L7 5 3 8.5" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
      ) : (
        <span className="trace-twisty-space" />
      )}
      <SpanIcon kind={span.kind} />
      <span className="trace-label">{span.label}</span>
      {span.sublabel && <span className="trace-sublabel">{span.sublabel}</span>}
      <span className="trace-status" data-status={span.status}>
        {span.status === 'running' ? <span className="trace-pulse" aria-label="running" /> : STATUS_TEXT[span.status]}
      </span>
      <span className="trace-tokens" title={span.tokens ? `${span.tokens.toLocaleString('en-US')} tokens` : undefined}>
        {span.tokens ? formatCompact(span.tokens) : ''}
      </span>
      <span className="trace-duration">{duration !== undefined ? formatDuration(duration) : ''}</span>
      <span className="trace-waterfall" aria-hidden>
        <span className="trace-bar" data-kind={span.kind} data-status={span.status} style={{ left: `${left}%`, width: `${Math.min(width, 100 - left)}%` }} />
      </span>
    </div>
  );
});
