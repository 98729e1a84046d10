import { useCallback, useEffect, useState } from 'react';
import type { TrustGrantResponse, TrustStatus } from '../../shared/host-api';
import { host } from '../host/hostContext';
import '../styles/banners.css';

/**
 * Workspace trust (docs/SECURITY.md): a workspace whose settings run commands (MCP stdio servers) or
 * send secrets elsewhere (MCP `${VAR}`s, keys sent to a model's own baseUrl) shows what it would run
 * and send where, with a Trust button. Until then the host refuses runs that need those parts.
 */
export function TrustBanner() {
  const [status, setStatus] = useState<TrustStatus | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  // Set when the host asks for the code it printed on its terminal (browser mode): the page alone cannot trust.
  const [codeAsked, setCodeAsked] = useState<string | undefined>();
  const [code, setCode] = useState('');

  const refresh = useCallback(async () => {
    try {
      setStatus(await host().invoke('trust.status', {}));
    } catch {
      // A host without the channel (an older one) shows no banner; runs still say why they are refused.
    }
  }, []);

  useEffect(() => {
    void refresh();
    // Settings and documents change what needs trust (a new server, new arguments).
    return host().subscribe((push) => {
      if (push.kind === 'documents.changed') void refresh();
    });
  }, [refresh]);

  if (!status || !status.needed || status.trusted) return null;
  const trust = async (withCode?: string) => {
    setBusy(true);
    setError(undefined);
    try {
      const answer: TrustGrantResponse = await host().invoke('trust.grant', withCode === undefined ? {} : { code: withCode });
      const { confirmation, ...next } = answer;
      setStatus(next);
      if (confirmation?.codeRequired) {
        if (withCode === undefined) setCodeAsked(confirmation.message);
        else setError(confirmation.message);
      } else if (confirmation) {
        setCodeAsked(undefined);
        setError(confirmation.message);
      } else {
        setCodeAsked(undefined);
        setCode('');
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="trust-banner" role="alert" data-testid="trust-banner" ref={keepDialogsClear}>
      <div className="trust-banner-text">
        <strong>This workspace wants to run commands, send secrets or reach other hosts.</strong> Nothing of this runs until you trust it; runs that
        need it are refused.
        <ul className="trust-banner-parts">
          {status.parts
            .filter((p) => !p.trusted)
            .map((p) => (
              <li key={`${p.where}\u0000${p.summary}`} data-kind={p.kind}>
                <code>{p.where}</code>: {p.summary}
              </li>
            ))}
        </ul>
        {codeAsked && (
          <form
            className="trust-banner-code"
            onSubmit={(e) => {
              e.preventDefault();
              void trust(code);
            }}
          >
            <label>
              {codeAsked}{' '}
              <input data-testid="trust-code" value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" autoComplete="off" size={8} autoFocus />
            </label>{' '}
            <button className="btn small" type="submit" data-testid="trust-confirm" disabled={busy || code.trim() === ''}>
              Confirm
            </button>
          </form>
        )}
        {error && error !== codeAsked && <div className="trust-banner-error">{error}</div>}
      </div>
      {!codeAsked && (
        <button className="btn small" data-testid="trust-grant" disabled={busy} onClick={() => void trust()}>
          Trust
        </button>
      )}
    </div>
  );
}

/**
 * The banner floats over the app, dialogs included (its Trust button stays usable while the Run dialog
 * is open): while it is shown, `--trust-banner-bottom` on the document tells dialogs.css where it ends,
 * and modal dialogs open below it instead of under it.
 */
function keepDialogsClear(banner: HTMLDivElement | null): (() => void) | undefined {
  if (!banner) return undefined;
  const root = document.documentElement;
  const update = () => root.style.setProperty('--trust-banner-bottom', `${Math.ceil(banner.getBoundingClientRect().bottom)}px`);
  update();
  const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(update);
  observer?.observe(banner);
  return () => {
    observer?.disconnect();
    root.style.removeProperty('--trust-banner-bottom');
  };
}
