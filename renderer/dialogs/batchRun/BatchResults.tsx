import type { HostBatch } from '../../../shared/host-api';
import { addUsage, describeCost, emptyUsage, formatUsd } from '../../../shared/usage';
import { formatCompact } from '../../panels/trace/formatCount';
import { useRunStore } from '../../stores/runStore';
import { useUiStore } from '../../stores/uiStore';
import { useBatchRunStore } from './batchRunStore';
import { summariseInputs } from './batchTable';

const BATCH_LABEL = { running: 'running', completed: 'all completed', failed: 'finished with failures', cancelled: 'stopped' } as const satisfies Record<HostBatch['status'], string>;

/** The rows of a batch as they run: status, usage, and a link that opens each row's run in the trace. */
export function BatchResults({ batch, onOpenRun }: { batch: HostBatch; onOpenRun(): void }) {
  const error = useBatchRunStore((s) => s.error);
  const count = (status: string) => batch.rows.filter((r) => r.status === status).length;
  const total = batch.rows.reduce((sum, r) => addUsage(sum, r.tokenUsage), emptyUsage());
  const parts = (['completed', 'failed', 'cancelled', 'paused', 'running', 'queued'] as const).filter((s) => count(s) > 0).map((s) => `${count(s)} ${s}`);
  const cost = describeCost(total);

  const open = (runId: string) => {
    void useRunStore.getState().openRun(runId, batch.path);
    useUiStore.getState().setBottomTab('trace');
    onOpenRun();
  };

  return (
    <div className="batch-results" data-testid="batch-results" data-status={batch.status}>
      <div className="batch-summary" data-testid="batch-summary">
        <span className="run-badge" data-status={batch.status}>
          {BATCH_LABEL[batch.status]}
        </span>
        <span>
          {batch.rows.length} row{batch.rows.length === 1 ? '' : 's'} · {parts.join(' · ')}
        </span>
        <span className="batch-summary-usage">
          {total.totalTokens.toLocaleString('en-US')} tokens{cost ? ` · ${cost}` : ''} · {batch.concurrency} at a time
        </span>
      </div>
      {error && <div className="dialog-error">{error}</div>}
      <div className="batch-table-wrap">
        <table className="batch-table" data-testid="batch-results-table">
          <thead>
            <tr>
              <th className="batch-num">#</th>
              <th>Inputs</th>
              <th>Status</th>
              <th className="num">Tokens</th>
              <th className="num">Cost</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {batch.rows.map((row) => (
              <tr key={row.runId} data-testid="batch-result" data-status={row.status} data-run-id={row.runId}>
                <td className="batch-num">{row.index + 1}</td>
                <td className="batch-inputs" title={Object.entries(row.inputs).map(([k, v]) => `${k}: ${v}`).join('\n')}>
                  {summariseInputs(row.inputs) || <span className="batch-default">defaults</span>}
                  {row.error && (
                    <div className="batch-row-error" title={row.error}>
                      {row.error}
                    </div>
                  )}
                </td>
                <td>
                  <span className="run-badge" data-status={row.status} data-testid="batch-result-status">
                    {row.status}
                  </span>
                </td>
                <td className="num" title={`${row.tokenUsage.totalTokens.toLocaleString('en-US')} tokens · ${row.tokenUsage.requests} requests`}>
                  {row.tokenUsage.requests > 0 ? formatCompact(row.tokenUsage.totalTokens) : '—'}
                </td>
                <td className="num" title={describeCost(row.tokenUsage)}>
                  {row.tokenUsage.costUsd !== undefined ? formatUsd(row.tokenUsage.costUsd) : '—'}
                </td>
                <td className="batch-open">
                  <button className="btn ghost" data-testid="batch-open-run" disabled={!row.opened} title={row.opened ? `Show ${row.runId} in the trace` : 'This row has not started'} onClick={() => open(row.runId)}>
                    Open trace →
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
