import { untrustedParts, useTrustStore } from '../stores/trustStore';
import { TrustFlow } from '../panels/trust/TrustFlow';

/**
 * The Run dialog's Trust…: while the workspace holds parts not trusted yet, the dialog shows them and the
 * same flow as the banner (which a modal dims), so a refused run can be trusted without leaving it.
 */
export function RunTrust() {
  const held = untrustedParts(useTrustStore((s) => s.status));
  if (held.length === 0) return null;
  return (
    <div className="run-trust" data-testid="run-trust">
      <strong>This workspace is not trusted yet.</strong> A run that needs one of these parts is refused until you trust them:
      <TrustFlow />
    </div>
  );
}
