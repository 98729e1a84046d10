import type { ProfileDraft } from './profileDraft';

interface ProfileListProps {
  drafts: ProfileDraft[];
  selectedKey: string | undefined;
  defaultName: string | undefined;
  /** The draft has a problem (the form's or the host's). */
  invalid(key: string): boolean;
  onSelect(key: string): void;
  onAdd(): void;
  onDefault(name: string | undefined): void;
}

/** The profiles to pick from (name, provider, model, which is the default), + Add profile, and the default profile. */
export function ProfileList({ drafts, selectedKey, defaultName, invalid, onSelect, onAdd, onDefault }: ProfileListProps) {
  return (
    <nav className="settings-profile-list" aria-label="Profiles">
      {drafts.map((d) => (
        <button
          key={d.key}
          className="settings-profile-item"
          data-testid="profile-item"
          data-profile={d.name}
          aria-current={d.key === selectedKey}
          data-invalid={invalid(d.key) ? true : undefined}
          onClick={() => onSelect(d.key)}
        >
          <span className="settings-profile-name">
            {d.name || 'unnamed'}
            {d.name === defaultName && <span className="settings-default-tag">default</span>}
          </span>
          <span className="settings-profile-sub">
            {d.provider} · {d.model || '—'}
          </span>
        </button>
      ))}
      {drafts.length === 0 && <p className="settings-help">No profiles yet. Crews then use OPENAI_MODEL (default gpt-4.1-mini) with OPENAI_API_KEY.</p>}
      <button className="btn small settings-add" data-testid="profile-add" onClick={onAdd}>
        + Add profile
      </button>
      <label className="settings-default-select" htmlFor="profile-default">
        Default profile
      </label>
      <select id="profile-default" data-testid="profile-default" className="settings-input" value={defaultName ?? ''} onChange={(e) => onDefault(e.target.value || undefined)}>
        <option value="">None (OPENAI_MODEL)</option>
        {drafts.map((d) => (
          <option key={d.key} value={d.name}>
            {d.name}
          </option>
        ))}
      </select>
    </nav>
  );
}
