import { useState } from 'react';
import { untrustedParts, useTrustStore } from '../../stores/trustStore';

interface TrustFlowProps {
  /** Lists the parts a grant covers (the banner and Settings do; a compact place may leave it to the banner). */
  showParts?: boolean;
  /** The button's label. */
  label?: string;
}

/**
 * The Trust… flow, the same wherever trust is needed (the banner, Settings, the Run dialog): what a grant
 * covers, a Trust… button and, in browser mode, the field for the code `crewdeck serve` printed on its
 * terminal. The state is shared (trustStore), so the code asked for in one place is typed in any.
 */
export function TrustFlow({ showParts = true, label = 'Trust…' }: TrustFlowProps) {
  const status = useTrustStore((s) => s.status);
  const busy = useTrustStore((s) => s.busy);
  const error = useTrustStore((s) => s.error);
  const codeAsked = useTrustStore((s) => s.codeAsked);
  const [code, setCode] = useState('');
  const parts = untrustedParts(status);
  if (parts.length === 0) return null;
  const grant = (withCode?: string) => void useTrustStore.getState().grant(withCode);

  return (
    <div className="trust-flow" data-code-asked={codeAsked ? true : undefined}>
      {showParts && (
        <ul className="trust-flow-parts" data-testid="trust-parts">
          {parts.map((p) => (
            <li key={`${p.where}\u0000${p.summary}`} data-kind={p.kind}>
              <code>{p.where}</code>: {p.summary}
            </li>
          ))}
        </ul>
      )}
      <div className="trust-flow-actions">
        {codeAsked ? (
          <form
            className="trust-flow-code"
            onSubmit={(e) => {
              e.preventDefault();
              grant(code);
            }}
          >
            <label>
              {codeAsked}{' '}
              <input
                className="trust-flow-input"
                data-testid="trust-code"
                value={code}
                onChange={(e) => setCode(e.target.value)}
                inputMode="numeric"
                autoComplete="off"
                size={8}
                aria-label="Code printed in the terminal"
              />
            </label>{' '}
            <button className="btn small primary" type="submit" data-testid="trust-confirm" disabled={busy || code.trim() === ''}>
              Confirm
            </button>
          </form>
        ) : (
          <button className="btn small" data-testid="trust-grant" disabled={busy} onClick={() => grant()}>
            {label}
          </button>
        )}
        {error && error !== codeAsked && (
          <span className="trust-flow-error" role="alert">
            {error}
          </span>
        )}
      </div>
    </div>
  );
}
