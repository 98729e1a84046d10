import type { SuggestionVersion } from '../../../shared/training';
import { useTrainingStore } from '../../stores/trainingStore';
import { formatRelativeTime } from '../formatTime';

/**
 * A role's versions, newest first: number, status, quality, summary, when, and whether edited by hand.
 * "Roll back" makes the version before the active one active again.
 */
export function VersionList({ role, versions, selected }: { role: string; versions: SuggestionVersion[]; selected?: number }) {
  const active = versions.find((v) => v.status === 'active');
  const canRollBack = active !== undefined && versions.some((v) => v.version < active.version);
  return (
    <>
      <div className="training-versions-head">
        <div className="training-section-label">Versions of {role}</div>
        <button
          className="btn small"
          data-testid="training-rollback"
          disabled={!canRollBack}
          title={canRollBack ? `Disable v${active!.version} and make the version before it active` : 'Needs an active version with an earlier one'}
          onClick={() => void useTrainingStore.getState().rollback(role)}
        >
          ↶ Roll back
        </button>
      </div>
      {versions.length === 0 && <div className="training-muted">No versions yet.</div>}
      <ol className="training-version-list">
        {versions.map((v) => (
          <li key={v.version}>
            <button
              className="training-version"
              data-testid="training-version"
              data-version={v.version}
              data-status={v.status}
              aria-pressed={v.version === selected}
              onClick={() => useTrainingStore.getState().select({ role: v.role, version: v.version })}
            >
              <span className="training-version-top">
                <span className="training-version-number">v{v.version}</span>
                <StatusChip status={v.status} />
                {v.edited && (
                  <span className="training-edited" data-testid="training-edited" title="Suggestions edited by hand">
                    edited
                  </span>
                )}
                <span className="training-spacer" />
                <span className="training-quality" title="Quality of the training outputs, per the evaluator">
                  {formatQuality(v.quality)}
                </span>
              </span>
              <span className="training-version-summary">{v.summary}</span>
              <span className="training-muted" title={new Date(v.createdAt).toLocaleString()}>
                {v.suggestions.length} suggestion{v.suggestions.length === 1 ? '' : 's'} · {formatRelativeTime(v.createdAt)}
              </span>
            </button>
          </li>
        ))}
      </ol>
    </>
  );
}

export function StatusChip({ status }: { status: SuggestionVersion['status'] }) {
  return (
    <span className="training-chip" data-status={status} data-testid="training-status">
      {status}
    </span>
  );
}

export function formatQuality(quality: number): string {
  return `${Number.isInteger(quality) ? quality : quality.toFixed(1)}/10`;
}
