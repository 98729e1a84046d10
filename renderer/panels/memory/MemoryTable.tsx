import type { HostMemoryMatch, HostMemoryRecord } from '../../../shared/host-api';
import { formatRelativeTime } from '../formatTime';
import { openMemorySource } from './openMemorySource';

export interface MemoryRow {
  record: HostMemoryRecord;
  /** Present while searching: the recall preview for this record. */
  match?: HostMemoryMatch;
}

/** One page of memories (or the search's matches): content, scope, categories, importance, source, updated. */
export function MemoryTable({ rows, searching, onEdit, onDelete }: { rows: MemoryRow[]; searching: boolean; onEdit(record: HostMemoryRecord): void; onDelete(record: HostMemoryRecord): void }) {
  if (rows.length === 0) {
    return (
      <div className="memory-empty" data-testid="memory-empty">
        {searching ? 'Nothing matched. Recall looks for similar meaning and shared words.' : 'No memories here yet. Crews with memory enabled write them after each task; you can also add one by hand.'}
      </div>
    );
  }
  return (
    <div className="memory-table-wrap">
      <table className="memory-table" data-testid="memory-table">
        <thead>
          <tr>
            {searching && <th className="memory-col-score">Score</th>}
            <th>Content</th>
            <th className="memory-col-scope">Scope</th>
            <th className="memory-col-cats">Categories</th>
            <th className="memory-col-num">Importance</th>
            <th className="memory-col-source">Source</th>
            <th className="memory-col-time">Updated</th>
            <th className="memory-col-actions">
              <span className="memory-sr">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ record, match }) => (
            <tr key={record.id} data-testid="memory-row" data-memory-id={record.id} data-private={record.private}>
              {searching && <td className="memory-col-score">{match && <ScoreCell match={match} />}</td>}
              <td className="memory-col-content">
                <div className="memory-content" title={record.content}>
                  {record.private && (
                    <span className="memory-private" title="Private: left out of recall unless asked for" data-testid="memory-private">
                      private
                    </span>
                  )}
                  {record.content}
                </div>
                {match && match.reasons.length > 0 && (
                  <ul className="memory-reasons" data-testid="memory-reasons">
                    {match.reasons.map((r) => (
                      <li key={r}>{r}</li>
                    ))}
                  </ul>
                )}
                {record.history.length > 0 && <div className="memory-edited">edited {record.history.length}×</div>}
              </td>
              <td className="memory-col-scope">
                <code>{record.scope}</code>
              </td>
              <td className="memory-col-cats">
                {record.categories.map((c) => (
                  <span key={c} className="memory-chip">
                    {c}
                  </span>
                ))}
              </td>
              <td className="memory-col-num">{record.importance.toFixed(2)}</td>
              <td className="memory-col-source">
                <SourceCell source={record.source} />
              </td>
              <td className="memory-col-time" title={new Date(record.updatedAt).toLocaleString()}>
                {formatRelativeTime(record.updatedAt)}
              </td>
              <td className="memory-col-actions">
                <button className="btn ghost small" aria-label={`Edit memory ${record.id}`} data-testid="memory-edit" onClick={() => onEdit(record)}>
                  Edit
                </button>
                <button className="btn ghost small danger" aria-label={`Delete memory ${record.id}`} data-testid="memory-delete" onClick={() => onDelete(record)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ScoreCell({ match }: { match: HostMemoryMatch }) {
  return (
    <div className="memory-score" data-testid="memory-score" title="Weighted score: semantic similarity, recency and importance">
      <div className="memory-score-total">{match.score.toFixed(2)}</div>
      <div className="memory-score-parts">
        <span title="Semantic similarity">sem {match.semantic.toFixed(2)}</span>
        <span title="Recency (half-life 30 days)">rec {match.recency.toFixed(2)}</span>
        <span title="Importance">imp {match.importance.toFixed(2)}</span>
      </div>
    </div>
  );
}

function SourceCell({ source }: { source: HostMemoryRecord['source'] }) {
  return (
    <div className="memory-source">
      <span className="memory-source-kind" data-kind={source.kind}>
        {source.kind}
      </span>
      {source.taskId && <span className="memory-source-task">{source.taskId}</span>}
      {source.runId && (
        <button
          className="memory-source-run"
          data-testid="memory-source-run"
          title={`Open run ${source.runId}${source.taskId ? ` at task ${source.taskId}` : ''}`}
          onClick={() => void openMemorySource(source)}
        >
          {source.runId}
        </button>
      )}
    </div>
  );
}
