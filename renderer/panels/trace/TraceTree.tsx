import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import type { TraceRow as Row } from './flattenSpans';
import { ROW_HEIGHT, TraceRow } from './TraceRow';

interface TraceTreeProps {
  rows: Row[];
  selectedId?: string;
  runStart: number;
  runLength: number;
  /** Keep the newest row in view as rows arrive. */
  follow?: boolean;
  onSelect(spanId: string): void;
  onToggle(spanId: string, expand?: boolean): void;
}

const rowHeight = () => ROW_HEIGHT;
const OVERSCAN = 6;

/** The span tree, virtualised: only the rows in view (plus a margin) are in the DOM. */
export function TraceTree({ rows, selectedId, runStart, runLength, follow = false, onSelect, onToggle }: TraceTreeProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // Stable callbacks: the virtualizer recomputes every row's offset when they change.
  const getItemKey = useCallback((index: number) => rows[index].span.id, [rows]);
  const getScrollElement = useCallback(() => scrollRef.current, []);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement,
    estimateSize: rowHeight,
    overscan: OVERSCAN,
    getItemKey,
    initialRect: { width: 800, height: 400 },
  });

  const selectedIndex = selectedId === undefined ? -1 : rows.findIndex((r) => r.span.id === selectedId);

  // Keep the selected row in view when it is chosen from elsewhere (keyboard, canvas).
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  // Following a live run: keep the end in view. Not with `scrollToIndex`, which reads the element's
  // scroll height (a forced layout of the whole page) several times per call and again on the frames
  // after it; one write per commit, from sizes known without layout (fixed-height rows, and the
  // viewport's height as the virtualizer's ResizeObserver last saw it).
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!follow || rows.length === 0 || !el) return;
    const viewport = virtualizer.scrollRect?.height ?? el.clientHeight;
    const end = Math.max(0, virtualizer.getTotalSize() - viewport);
    if (virtualizer.scrollOffset !== end) el.scrollTop = end;
  }, [follow, rows.length, virtualizer]);

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLDivElement>) => {
      if (rows.length === 0) return;
      const at = selectedIndex;
      const row = at >= 0 ? rows[at] : undefined;
      const move = (to: number) => {
        const clamped = Math.max(0, Math.min(rows.length - 1, to));
        onSelect(rows[clamped].span.id);
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

  const items = virtualizer.getVirtualItems();
  // Slots for the rows' DOM: as many as the viewport can show with its overscan, a count that does not
  // change as the window moves (the number of items does, by one at the list's end), so a row keeps its
  // slot while it stays in the window and only rows scrolling in take over the slots of rows leaving.
  const slots = Math.max(items.length, Math.ceil((virtualizer.scrollRect?.height ?? 400) / ROW_HEIGHT) + 2 * OVERSCAN + 2);
  return (
    <div ref={scrollRef} className="trace-scroll" role="tree" aria-label="Trace" tabIndex={0} onKeyDown={onKeyDown} data-testid="trace-tree">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const row = rows[item.index];
          return (
            <TraceRow
              // Keyed by slot, not by span: rows scrolled out hand their DOM to rows scrolled in.
              key={item.index % slots}
              row={row}
              selected={row.span.id === selectedId}
              runStart={runStart}
              runLength={runLength}
              onSelect={onSelect}
              onToggle={onToggle}
              top={item.start}
            />
          );
        })}
      </div>
    </div>
  );
}
