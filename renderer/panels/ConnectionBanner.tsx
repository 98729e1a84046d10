import { useConnectionStore } from '../stores/connectionStore';
import '../styles/banners.css';

/**
 * Browser mode only: the WebSocket to `crewdeck serve` dropped. Reconnecting goes on by itself; after
 * many failed tries the likely reason is a restarted server, whose token the page no longer has.
 */
export function ConnectionBanner() {
  const status = useConnectionStore((s) => s.status);
  const failed = useConnectionStore((s) => s.failedAttempts);
  if (status === 'connected') return null;
  return (
    <div className="connection-banner" role="alert" data-testid="connection-banner" data-status={status}>
      <span className="connection-banner-dot" aria-hidden />
      {status === 'reconnecting' ? (
        <span>
          Lost the connection to crewdeck serve — reconnecting…
          {failed > 0 && <span className="connection-banner-attempts"> ({failed} failed {failed === 1 ? 'attempt' : 'attempts'})</span>}
        </span>
      ) : (
        <span>
          Lost the connection to crewdeck serve — still trying. A restarted <code>crewdeck serve</code> has a new token: open the URL it printed.
        </span>
      )}
    </div>
  );
}
