import { useState, type ReactNode } from 'react';

/** A titled group of fields that can be folded away. */
export function Section({ title, children, defaultOpen = true, aside }: { title: string; children: ReactNode; defaultOpen?: boolean; aside?: ReactNode }) {
  const [open, setOpen] = useState(defaultOpen);
  return (
    <section className="insp-section" data-open={open || undefined}>
      <header className="insp-section-head">
        <button type="button" className="insp-section-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span className="insp-caret" aria-hidden>
            ▸
          </span>
          {title}
        </button>
        {aside}
      </header>
      {open && <div className="insp-section-body">{children}</div>}
    </section>
  );
}
