import { useState, type ReactNode } from 'react';
import { prettyJson } from '../prettyJson';

/** A labelled group of details; collapsible. */
export function Section({ title, children, open = true, testId }: { title: ReactNode; children: ReactNode; open?: boolean; testId?: string }) {
  return (
    <details className="detail-section" open={open} data-testid={testId}>
      <summary>{title}</summary>
      <div className="detail-section-body">{children}</div>
    </details>
  );
}

/** Key–value facts in a dense two-column grid. */
export function Facts({ items }: { items: [string, ReactNode][] }) {
  const shown = items.filter(([, v]) => v !== undefined && v !== null && v !== '');
  if (shown.length === 0) return null;
  return (
    <dl className="detail-facts">
      {shown.map(([k, v]) => (
        <div key={k} className="detail-fact">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Monospace text (prompt, response, result), with a copy button; long text is clipped until expanded. */
export function TextBlock({ text, label, tone, json = false, testId }: { text: string | undefined; label?: string; tone?: 'err' | 'ok' | 'warn'; json?: boolean; testId?: string }) {
  const [expanded, setExpanded] = useState(false);
  const body = json ? prettyJson(text) : (text ?? '');
  const long = body.length > 4000 || body.split('\n').length > 40;
  return (
    <div className="detail-text" data-tone={tone} data-testid={testId}>
      {(label || body) && (
        <div className="detail-text-head">
          {label && <span className="detail-text-label">{label}</span>}
          <span className="detail-text-meta">{body.length > 0 ? `${body.length.toLocaleString('en-US')} chars` : 'empty'}</span>
          {body.length > 0 && <CopyButton text={body} />}
        </div>
      )}
      {body.length > 0 && (
        <pre className="detail-pre" data-clipped={long && !expanded}>
          {long && !expanded ? body.slice(0, 4000) : body}
        </pre>
      )}
      {long && (
        <button className="detail-more" onClick={() => setExpanded(!expanded)}>
          {expanded ? 'Show less' : 'Show all'}
        </button>
      )}
    </div>
  );
}

/** A value as pretty JSON. */
export function JsonBlock({ value, label, testId }: { value: unknown; label?: string; testId?: string }) {
  return <TextBlock text={prettyJson(value)} label={label} testId={testId} />;
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      className="detail-copy"
      aria-label="Copy"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1200);
        });
      }}
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/** Small coloured verdict tag: passed / failed / approved… */
export function Verdict({ tone, children }: { tone: 'ok' | 'err' | 'warn' | 'muted' | 'running'; children: ReactNode }) {
  return (
    <span className="detail-verdict" data-tone={tone}>
      {children}
    </span>
  );
}
