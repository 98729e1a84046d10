import { useEffect, useEffectEvent, useId, useRef, type ReactNode } from 'react';
import '../styles/dialogs.css';

interface ModalProps {
  title: ReactNode;
  /** Shown under the title. */
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** Escape and the backdrop call it; omit to make the dialog answer-only. */
  onClose?(): void;
  testId?: string;
  width?: number;
  /** Focus the dialog itself rather than its first field or main button (nothing is one keypress away). */
  focusDialog?: boolean;
}

const FOCUS_ORDER = ['[data-autofocus]', 'textarea', 'input', 'select', 'button.primary'];

/** A centred modal dialog with a backdrop; focus moves into it and Escape closes it. */
export function Modal({ title, subtitle, children, footer, onClose, testId, width = 560, focusDialog = false }: ModalProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  // Focus moves once, when the dialog opens: by the prop as it was then.
  const focusDialogAtOpen = useRef(focusDialog);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const root = ref.current;
    const first = focusDialogAtOpen.current ? root : FOCUS_ORDER.map((q) => root?.querySelector<HTMLElement>(q)).find((el) => el && !(el as HTMLButtonElement).disabled);
    (first ?? root)?.focus();
    return () => previous?.focus?.();
    // Once, when the dialog opens.
  }, []);

  // The focused control can leave the page while the dialog is open (a form replaced by its results):
  // focus falls back to the body, outside the dialog, and Escape must still close it.
  const escapeFromBody = useEffectEvent((e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !onClose || (document.activeElement !== null && document.activeElement !== document.body)) return;
    // Dialogs over dialogs: only the top one closes.
    const open = document.querySelectorAll('.modal');
    if (open[open.length - 1] === ref.current) onClose();
  });
  useEffect(() => {
    const listener = (e: KeyboardEvent) => escapeFromBody(e);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose?.()}>
      <div
        ref={ref}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid={testId}
        style={{ width }}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && onClose) {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <header className="modal-head">
          <div className="modal-titles">
            <h2 id={titleId} className="modal-title">
              {title}
            </h2>
            {subtitle && <div className="modal-subtitle">{subtitle}</div>}
          </div>
          {onClose && (
            <button className="btn ghost modal-close" aria-label="Close" onClick={onClose}>
              ×
            </button>
          )}
        </header>
        <div className="modal-body">{children}</div>
        {footer && <footer className="modal-foot">{footer}</footer>}
      </div>
    </div>
  );
}
