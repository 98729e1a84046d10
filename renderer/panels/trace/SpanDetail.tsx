import { useEffect, useRef, type ComponentType, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { usePanelLayoutStore, type DetailMode } from '../../stores/panelLayoutStore';
import { formatDuration } from '../formatTime';
import { Section, TextBlock } from './detail/DetailBlocks';
import { formatTokens } from './formatCount';
import { SPAN_KIND_LABEL, SpanIcon } from './SpanIcon';
import { useSpanDetailSlot } from './spanDetailSlot';
import { SPAN_DETAILS, type DetailProps } from './spanDetails';

/** The test id of the mode button to focus once the details have moved (popping out remounts them elsewhere). */
let focusAfterMove: string | undefined;

const MODE_BUTTONS = [
  { mode: 'side', label: 'Side panel', on: 'Dock', testId: 'span-detail-side-toggle', title: 'Pop the details out into the side panel, full height (long prompts)' },
  { mode: 'maximised', label: 'Maximise', on: 'Restore', testId: 'span-detail-maximise', title: 'Give the details the whole main area (long prompts)' },
] as const;

/**
 * Everything known about the selected span: beside the trace tree, popped out into the side panel
 * (portalled into App's side column) or maximised. The choice is remembered; Escape brings popped-out
 * details back beside the tree.
 */
export function SpanDetail({ span, view, onClose }: DetailProps & { onClose(): void }) {
  const Detail: ComponentType<DetailProps> = SPAN_DETAILS[span.kind];
  const mode = usePanelLayoutStore((s) => s.detailMode);
  const slot = useSpanDetailSlot((s) => s.element);
  const head = useRef<HTMLElement>(null);
  const duration = span.durationMs ?? (span.end !== undefined ? span.end - span.start : undefined);
  const where: DetailMode = mode === 'side' && !slot ? 'docked' : mode;
  // Keyboard: the button pressed keeps the focus wherever the details moved to.
  const move = (next: DetailMode, button: string) => {
    focusAfterMove = button;
    usePanelLayoutStore.getState().setDetailMode(next);
  };
  useEffect(() => {
    if (focusAfterMove === undefined) return;
    head.current?.querySelector<HTMLElement>(`[data-testid="${focusAfterMove}"]`)?.focus();
    focusAfterMove = undefined;
  }, [where]);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && where !== 'docked') {
      e.stopPropagation();
      move('docked', MODE_BUTTONS.find((b) => b.mode === where)?.testId ?? MODE_BUTTONS[0].testId);
    }
  };
  const aside = (
    <aside className="span-detail" aria-label="Span details" data-testid="span-detail" data-kind={span.kind} data-mode={where} onKeyDown={onKeyDown}>
      <header className="span-detail-head" ref={head}>
        <SpanIcon kind={span.kind} />
        <div className="span-detail-title">
          <div className="span-detail-label">{span.label}</div>
          <div className="span-detail-sub">
            {SPAN_KIND_LABEL[span.kind]}
            {span.sublabel ? ` · ${span.sublabel}` : ''}
          </div>
        </div>
        {MODE_BUTTONS.map((b) => {
          const on = where === b.mode;
          return (
            <button
              key={b.mode}
              type="button"
              className={`btn ghost small span-detail-mode span-detail-${b.mode === 'side' ? 'popout' : 'maximise'}`}
              aria-pressed={on}
              data-testid={b.testId}
              title={on ? 'Back beside the trace (Esc)' : b.title}
              onClick={() => move(on ? 'docked' : b.mode, b.testId)}
            >
              {on ? b.on : b.label}
            </button>
          );
        })}
        <button className="btn ghost span-detail-close" aria-label="Close details" onClick={onClose}>
          ×
        </button>
      </header>
      <div className="span-detail-stats">
        <span className="span-detail-status" data-status={span.status}>
          {span.status}
        </span>
        {duration !== undefined && <span>{formatDuration(duration)}</span>}
        {span.tokens > 0 && <span>{formatTokens(span.tokens)}</span>}
        <span className="span-detail-time">{new Date(span.start).toLocaleTimeString()}</span>
      </div>
      <div className="span-detail-body">
        <Detail span={span} view={view} />
        <Section title={`Events (${span.events.length})`} open={false}>
          {span.events.map((e) => (
            <TextBlock key={e.seq} label={`#${e.seq} ${e.type}`} text={JSON.stringify(e)} json />
          ))}
        </Section>
      </div>
    </aside>
  );
  return where === 'side' && slot ? createPortal(aside, slot) : aside;
}
