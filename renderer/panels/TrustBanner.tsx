import { useEffect } from 'react';
import { useTrustStore } from '../stores/trustStore';
import { useUiStore } from '../stores/uiStore';
import { TrustFlow } from './trust/TrustFlow';
import '../styles/banners.css';

/**
 * Workspace trust (docs/SECURITY.md): a workspace whose settings run commands (MCP stdio servers), send
 * secrets elsewhere (MCP `${VAR}`s, keys sent to a model's own baseUrl) or reach other hosts shows what
 * it would run, send or reach, with Trust…. Until then the host refuses runs that need those parts.
 *
 * The banner is a row of the app's layout under the toolbar: it pushes the sidebar, palette and canvas
 * down instead of covering them, and a modal's backdrop dims it with the rest (the Run dialog shows the
 * same Trust… flow inside it). Settings shows the flow itself, at the top of its page, so the banner
 * steps aside there.
 */
export function TrustBanner() {
  const status = useTrustStore((s) => s.status);
  const inSettings = useUiStore((s) => s.view === 'settings');

  useEffect(() => useTrustStore.getState().attach(), []);

  if (!status || !status.needed || status.trusted || inSettings) return null;
  return (
    <section className="trust-banner" data-testid="trust-banner" aria-label="Workspace trust">
      <span className="trust-banner-icon" aria-hidden>
        !
      </span>
      <div className="trust-banner-text">
        <strong>This workspace wants to run commands, send secrets or reach other hosts.</strong> Nothing of this runs until you trust it; runs that
        need it are refused.
        <TrustFlow />
      </div>
    </section>
  );
}
