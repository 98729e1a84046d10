import type { ConnectionCheck } from '../../stores/settingsStore';

/** The outcome of "Test connection": latency and models, or what went wrong. */
export function ConnectionResult({ check }: { check?: ConnectionCheck }) {
  if (!check) return null;
  if (check.running) return <div className="settings-check" data-testid="connection-result" data-state="running">Testing…</div>;
  if (check.error) {
    return (
      <div className="settings-check" data-testid="connection-result" data-state="error">
        {check.error}
      </div>
    );
  }
  const r = check.result!;
  if (!r.ok) {
    return (
      <div className="settings-check" data-testid="connection-result" data-state="error">
        Failed after {r.latencyMs} ms: {r.error ?? 'unknown error'}
      </div>
    );
  }
  return (
    <div className="settings-check" data-testid="connection-result" data-state="ok">
      Connected in {r.latencyMs} ms
      {r.method === 'models' && ' (listed its models)'}
      {r.method === 'chat' && ' (no model list on this server: a one-token chat request answered)'}
      {r.models.length > 0 && (
        <>
          {' · '}
          {r.models.length} model{r.models.length === 1 ? '' : 's'} available
          <div className="settings-models">
            {r.models.slice(0, 60).map((m) => (
              <code key={m}>{m}</code>
            ))}
            {r.models.length > 60 && <span>… and {r.models.length - 60} more</span>}
          </div>
        </>
      )}
    </div>
  );
}
