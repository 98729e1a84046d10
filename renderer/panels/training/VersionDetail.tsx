import { useEffect, useEffectEvent } from 'react';
import type { SuggestionVersion } from '../../../shared/training';
import { useTrainingStore } from '../../stores/trainingStore';
import { FeedbackRecords } from './FeedbackRecords';
import { SuggestionEditor } from './SuggestionEditor';
import { formatQuality, StatusChip } from './VersionList';
import { VersionDiffView } from './VersionDiffView';

/**
 * One version: status and its actions (activate, disable), the evaluator's summary and quality, the
 * suggestions (editable), a diff with another version of the role, and the feedback behind it.
 */
export function VersionDetail({ version, others }: { version: SuggestionVersion; others: SuggestionVersion[] }) {
  const compareWith = useTrainingStore((s) => s.compareWith);
  const diff = useTrainingStore((s) => s.diff);
  const actionError = useTrainingStore((s) => s.actionError);
  const key = { role: version.role, version: version.version };
  const store = useTrainingStore.getState;

  const loadRecords = useEffectEvent(() => void store().loadRecords(version));
  // Once per version (the panel keys this component by version); a refresh reloads them itself.
  useEffect(() => loadRecords(), []);

  return (
    <div className="training-version-detail" data-testid="training-version-detail" data-version={version.version}>
      <header className="training-detail-head">
        <h2>
          {version.role} · v{version.version}
        </h2>
        <StatusChip status={version.status} />
        {version.edited && <span className="training-edited">edited</span>}
        <span className="training-spacer" />
        {version.status !== 'active' && (
          <button className="btn small primary" data-testid="training-activate" onClick={() => void store().activate(key)}>
            {version.status === 'draft' ? 'Approve and activate' : 'Activate'}
          </button>
        )}
        {version.status !== 'disabled' && (
          <button className="btn small" data-testid="training-disable" onClick={() => void store().disable(key)}>
            Disable
          </button>
        )}
      </header>
      {actionError && (
        <div className="banner-error" data-testid="training-action-error">
          {actionError}
        </div>
      )}
      <div className="training-facts">
        <span>
          Quality <strong>{formatQuality(version.quality)}</strong>
        </span>
        <span title={new Date(version.createdAt).toLocaleString()}>Created {new Date(version.createdAt).toLocaleString()}</span>
        {version.edited && <span title={new Date(version.updatedAt).toLocaleString()}>Edited {new Date(version.updatedAt).toLocaleString()}</span>}
        {version.trainingId && (
          <span>
            Training <code>{version.trainingId}</code>
          </span>
        )}
      </div>
      <p className="training-summary" data-testid="training-summary">
        {version.summary}
      </p>
      <SuggestionEditor version={version} />
      <section className="training-compare" aria-label="Compare versions">
        <div className="training-compare-head">
          <label htmlFor="training-compare" className="training-section-label">
            Compare with
          </label>
          <select
            id="training-compare"
            data-testid="training-compare"
            className="training-select"
            value={compareWith ?? ''}
            disabled={others.length === 0}
            onChange={(e) => void store().compare(e.target.value ? Number(e.target.value) : undefined)}
          >
            <option value="">{others.length === 0 ? 'no other version' : 'another version…'}</option>
            {others.map((o) => (
              <option key={o.version} value={o.version}>
                v{o.version} ({o.status})
              </option>
            ))}
          </select>
        </div>
        {diff && compareWith !== undefined && <VersionDiffView diff={diff} />}
      </section>
      <FeedbackRecords version={version} />
    </div>
  );
}
