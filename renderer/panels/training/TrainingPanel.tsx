import { useEffect, useEffectEvent, useState } from 'react';
import type { SuggestionVersion } from '../../../shared/training';
import { useDocumentStore } from '../../stores/documentStore';
import { useTrainingStore } from '../../stores/trainingStore';
import '../../styles/training.css';
import { crewOfDocument } from './crewOfDocument';
import { TrainingSessions } from './TrainingSessions';
import { VersionDetail } from './VersionDetail';
import { VersionList } from './VersionList';

/**
 * The training panel (SPEC §6) of the crew on the canvas: its training sessions (progress, runs),
 * the roles with their suggestion versions, and the picked version — its suggestions (editable),
 * status actions, a diff with another version, and the feedback records behind it.
 */
export function TrainingPanel() {
  const doc = useDocumentStore((s) => s.doc);
  const crew = crewOfDocument(doc);
  const versions = useTrainingStore((s) => s.versions);
  const selected = useTrainingStore((s) => s.selected);
  const error = useTrainingStore((s) => s.error);
  const [role, setRole] = useState<string>();

  // App attaches the store for good (review dialogs use it); attaching again is a no-op.
  useEffect(() => void useTrainingStore.getState().attach(), []);

  useEffect(() => {
    if (crew?.id) void useTrainingStore.getState().load(crew.id);
  }, [crew?.id]);

  const roles = [...new Set([...(crew?.roles ?? []), ...versions.map((v) => v.role)])];
  const shownRole = role && roles.includes(role) ? role : (roles.find((r) => versions.some((v) => v.role === r)) ?? roles[0]);
  const roleVersions = versions.filter((v) => v.role === shownRole).sort((a, b) => b.version - a.version);
  const version = selected && selected.role === shownRole ? roleVersions.find((v) => v.version === selected.version) : undefined;

  // A role shows its active version (or its newest) until another is picked: looked at when the role,
  // the picked version or the number of versions changes (reading the list as it is then).
  const pickShownVersion = useEffectEvent(() => {
    if (version) return;
    const pick = roleVersions.find((v) => v.status === 'active') ?? roleVersions[0];
    if (pick === undefined) return;
    useTrainingStore.getState().select({ role: pick.role, version: pick.version });
  });
  useEffect(() => pickShownVersion(), [shownRole, version, roleVersions.length]);

  if (!crew) {
    return (
      <div className="training-panel" data-testid="training-panel">
        <div className="training-empty">Open a crew to train it. Flows are not trained.</div>
      </div>
    );
  }

  return (
    <div className="training-panel" data-testid="training-panel">
      <header className="training-head">
        <div className="training-title">
          <h1>Training</h1>
          <span className="training-crew">{crew.name}</span>
        </div>
        <span className="training-spacer" />
        {/* Train… / Test… is the toolbar's, shown in every view of the crew. */}
      </header>
      {error && <div className="banner-error">Could not load the training data: {error}</div>}
      <TrainingSessions />
      <div className="training-body">
        <nav className="training-roles" aria-label="Roles">
          <div className="training-section-label">Roles</div>
          {roles.length === 0 && <div className="training-muted">This crew has no agents yet.</div>}
          {roles.map((r) => (
            <RoleButton key={r} role={r} versions={versions.filter((v) => v.role === r)} selected={r === shownRole} onClick={() => setRole(r)} />
          ))}
        </nav>
        <section className="training-versions" aria-label="Versions">
          {shownRole && <VersionList role={shownRole} versions={roleVersions} selected={version?.version} />}
        </section>
        <section className="training-detail" aria-label="Version">
          {version ? (
            <VersionDetail key={`${version.role}#${version.version}`} version={version} others={roleVersions.filter((v) => v.version !== version.version)} />
          ) : (
            <div className="training-empty">
              {roleVersions.length === 0 ? (
                <>
                  <strong>No suggestions for {shownRole ?? 'this crew'} yet.</strong>
                  <p>Train the crew: review each task's answer and give feedback. After the last iteration the evaluator turns the feedback into suggestions for each role.</p>
                </>
              ) : (
                'Pick a version.'
              )}
            </div>
          )}
        </section>
      </div>
    </div>
  );
}

function RoleButton({ role, versions, selected, onClick }: { role: string; versions: SuggestionVersion[]; selected: boolean; onClick(): void }) {
  const active = versions.find((v) => v.status === 'active');
  const drafts = versions.filter((v) => v.status === 'draft').length;
  return (
    <button className="training-role" data-testid="training-role" data-role={role} aria-pressed={selected} onClick={onClick}>
      <span className="training-role-name">{role}</span>
      <span className="training-role-meta">
        {active ? `v${active.version} active · ${active.suggestions.length} suggestion${active.suggestions.length === 1 ? '' : 's'}` : versions.length ? 'none active' : 'not trained'}
        {drafts > 0 ? ` · ${drafts} draft${drafts === 1 ? '' : 's'}` : ''}
      </span>
    </button>
  );
}
