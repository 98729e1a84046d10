import { useCallback, useEffect, useEffectEvent, useLayoutEffect, useRef, useState, type JSX, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import type { TraceRow as Row } from './flattenSpans';
import { ROW_HEIGHT, TraceRow } from './TraceRow';

interface TraceTreeProps {
  rows: Row[];
  selectedId?: string;
  runStart: number;
  runLength: number;
  /** Keep the newest row in view as rows arrive. */
  follow?: boolean;
  /** While following, the view was scrolled away from the end (by the person, or to a selected row). */
  onUnfollow?(): void;
  onSelect(spanId: string): void;
  onToggle(spanId: string, expand?: boolean): void;
}

const OVERSCAN = 6;
/** Before the viewport is measured (and where nothing measures it). */
const INITIAL_VIEWPORT = 400;

/**
 * The span tree, virtualised: only the rows in view (plus a margin) are in the DOM. Rows have one fixed
 * height, so the window is arithmetic on the scroll offset and the viewport's height, both known without
 * reading layout: the offset from scroll events, the height from a ResizeObserver. While following a
 * live run the window is the list's end, computed from the row count in the same render that adds the
 * rows; the one scrollTop write that follows (a layout the frame needs anyway) then scrolls to a window
 * already in the DOM, and its scroll event changes nothing. A scroll above the end (the wheel, the
 * scrollbar, a row selected elsewhere) stops following (`onUnfollow`), and the view stays there.
 */
export function TraceTree({ rows, selectedId, runStart, runLength, follow = false, onUnfollow, onSelect, onToggle }: TraceTreeProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState(INITIAL_VIEWPORT);
  /** scrollTop as the last scroll event reported it. */
  const [scrolled, setScrolled] = useState(0);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    setViewport(el.clientHeight || INITIAL_VIEWPORT);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1]?.contentRect;
      if (box) setViewport(box.height);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const total = rows.length * ROW_HEIGHT;
  const end = Math.max(0, total - viewport);
  // A shorter list (collapsed, filtered) clamps the offset before its scroll event arrives.
  const offset = follow ? end : Math.min(scrolled, end);
  // Following, the rows above the view are never scrolled to (the view stays at the end), so none are
  // rendered ahead: each fold of a fast run replaces the whole window.
  const overscan = follow ? 0 : OVERSCAN;
  const first = Math.max(0, Math.floor(offset / ROW_HEIGHT) - overscan);
  const last = Math.min(rows.length - 1, Math.ceil((offset + viewport) / ROW_HEIGHT) + overscan - 1);

  const selectedIndex = selectedId === undefined ? -1 : rows.findIndex((r) => r.span.id === selectedId);

  // Keep the selected row in view when it is chosen from elsewhere (keyboard, canvas).
  const revealRow = useEffectEvent((index: number) => {
    const el = scrollRef.current;
    if (index < 0 || !el) return;
    const top = index * ROW_HEIGHT;
    if (top < offset) el.scrollTop = top;
    else if (top + ROW_HEIGHT > offset + viewport) el.scrollTop = Math.max(0, top + ROW_HEIGHT - viewport);
  });
  // Only when the selection (or its place in the list) changes, not as the view scrolls.
  useEffect(() => revealRow(selectedIndex), [selectedIndex]);

  // Following a live run: one write per commit, to the end the window above was computed for.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!follow || rows.length === 0 || !el) return;
    if (scrolled !== end) el.scrollTop = end;
  }, [follow, rows.length, end, scrolled]);

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLDivElement>) => {
      if (rows.length === 0) return;
      const at = selectedIndex;
      const row = at >= 0 ? rows[at] : undefined;
      const move = (to: number) => {
        const clamped = Math.max(0, Math.min(rows.length - 1, to));
        const target = rows[clamped];
        if (target) onSelect(target.span.id);
      };
      switch (e.key) {
        case 'ArrowDown':
          move(at + 1);
          break;
        case 'ArrowUp':
          move(at < 0 ? 0 : at - 1);
          break;
        case 'Home':
          move(0);
          break;
        case 'End':
          move(rows.length - 1);
          break;
        case 'PageDown':
          move(at + 20);
          break;
        case 'PageUp':
          move(at - 20);
          break;
        case 'ArrowRight':
          if (row?.hasChildren && !row.expanded) onToggle(row.span.id, true);
          else if (row?.expanded) move(at + 1);
          break;
        case 'ArrowLeft':
          if (row?.expanded) onToggle(row.span.id, false);
          else if (row?.span.parentId) {
            const parent = rows.findIndex((r) => r.span.id === row.span.parentId);
            if (parent >= 0) move(parent);
          }
          break;
        default:
          return;
      }
      e.preventDefault();
    },
    [rows, selectedIndex, onSelect, onToggle],
  );

  // Slots for the rows' DOM: as many as the viewport can show with its overscan, a count that does not
  // change as the window moves, so a row keeps its slot while it stays in the window and only rows
  // scrolling in take over the slots of rows leaving.
  const slots = Math.max(last - first + 1, Math.ceil(viewport / ROW_HEIGHT) + 2 * OVERSCAN + 2);
  const shown: JSX.Element[] = [];
  for (let index = first; index <= last; index++) {
    const row = rows[index];
    if (!row) continue;
    shown.push(
      <TraceRow
        // Keyed by slot, not by span: rows scrolled out hand their DOM to rows scrolled in.
        key={index % slots}
        row={row}
        selected={row.span.id === selectedId}
        runStart={runStart}
        runLength={runLength}
        onSelect={onSelect}
        onToggle={onToggle}
        top={index * ROW_HEIGHT}
      />,
    );
  }
  return (
    <div
      ref={scrollRef}
      className="trace-scroll"
      role="tree"
      aria-label="Trace"
      tabIndex={0}
      onKeyDown={onKeyDown}
      // Synchronously, as the rows scrolled into view must be in the frame that shows them scrolled.
      onScroll={(e) => {
        const top = e.currentTarget.scrollTop;
        // Following, the view is written to the end in every commit before any scroll event is handled,
        // so a scroll above it is the person's (or a selected row's): the view stays where it went.
        if (follow && top < end - ROW_HEIGHT / 2) onUnfollow?.();
        flushSync(() => setScrolled(top));
      }}
      data-testid="trace-tree"
    >
      <div style={{ height: total, position: 'relative' }}>{shown}</div>
    </div>
  );
}
