import type { SuggestionDiff } from '../../../shared/training';

/** What changed from an older version's suggestions to a newer one's: added, removed, reworded, kept. */
export function VersionDiffView({ diff }: { diff: SuggestionDiff }) {
  const same = diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0;
  return (
    <div className="training-diff" data-testid="version-diff" aria-label={`Changes from v${diff.from} to v${diff.to}`}>
      <div className="training-diff-head">
        v{diff.from} → v{diff.to}: {diff.added.length} added · {diff.removed.length} removed · {diff.changed.length} changed · {diff.unchanged.length} kept
      </div>
      {same && <div className="training-muted">The two versions have the same suggestions.</div>}
      <ul className="training-diff-list">
        {diff.removed.map((s, i) => (
          <li key={`r${i}`} className="training-diff-line" data-kind="removed" data-testid="diff-removed">
            <span className="training-diff-mark" aria-label="removed">−</span>
            <span>{s}</span>
          </li>
        ))}
        {diff.changed.map((c, i) => (
          <li key={`c${i}`} className="training-diff-line" data-kind="changed" data-testid="diff-changed">
            <span className="training-diff-mark" aria-label="changed">~</span>
            <span className="training-diff-change">
              <del>{c.before}</del>
              <ins>{c.after}</ins>
            </span>
          </li>
        ))}
        {diff.added.map((s, i) => (
          <li key={`a${i}`} className="training-diff-line" data-kind="added" data-testid="diff-added">
            <span className="training-diff-mark" aria-label="added">+</span>
            <span>{s}</span>
          </li>
        ))}
        {diff.unchanged.map((s, i) => (
          <li key={`u${i}`} className="training-diff-line" data-kind="unchanged">
            <span className="training-diff-mark" aria-label="kept">=</span>
            <span>{s}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
