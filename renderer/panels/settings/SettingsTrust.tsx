import { untrustedParts, useTrustStore } from '../../stores/trustStore';
import { useSettingsStore } from '../../stores/settingsStore';
import { TrustFlow } from '../trust/TrustFlow';

/**
 * Trust, where Settings needs it: a loopback base URL just saved is the user's own (no step at all, and
 * the page says so); a remote one, or one the workspace brought, waits for the same Trust… flow as the
 * banner's (the terminal's code in browser mode, a native dialog in the desktop app), shown here inline.
 */
export function SettingsTrust() {
  const entered = useSettingsStore((s) => s.entered);
  const status = useTrustStore((s) => s.status);
  const held = untrustedParts(status);
  if (entered.length === 0 && held.length === 0) return null;
  return (
    <div className="settings-trust" data-testid="settings-trust">
      {entered.length > 0 && (
        <p className="settings-trust-entered" data-testid="settings-entered">
          {entered.map((url) => (
            <code key={url}>{url}</code>
          ))}{' '}
          {entered.length === 1 ? 'is' : 'are'} a model server on this machine that you entered: recorded as yours for this workspace, so testing and
          running on {entered.length === 1 ? 'it' : 'them'} need no trust step.
        </p>
      )}
      {held.length > 0 && (
        <div className="settings-trust-held" data-testid="settings-trust-held">
          <strong>Not trusted yet.</strong> A base URL on another host, one that receives a key, or one this workspace brought with it, is reached
          only once you trust it, and an MCP server's command runs only then:
          <TrustFlow />
        </div>
      )}
    </div>
  );
}
