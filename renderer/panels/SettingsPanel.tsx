import { useEffect } from 'react';
import { useSettingsStore } from '../stores/settingsStore';
import '../styles/settings.css';
import { ApiKeysSection } from './settings/ApiKeysSection';
import { AppearanceSection } from './settings/AppearanceSection';
import { McpServersSection } from './settings/McpServersSection';
import { ModelProfilesSection } from './settings/ModelProfilesSection';
import { PricesSection } from './settings/PricesSection';
import { TeamServerSection } from './settings/TeamServerSection';

/** Workspace settings: model profiles (add, edit, delete, default, test connection), API keys, theme. */
export function SettingsPanel() {
  const loadError = useSettingsStore((s) => s.loadError);
  const fileProblems = useSettingsStore((s) => s.fileProblems);

  useEffect(() => {
    void useSettingsStore.getState().load();
  }, []);

  return (
    <div className="settings-panel" data-testid="settings-panel">
      <div className="settings-scroll">
        <header className="settings-head">
          <h1>Settings</h1>
          <p className="settings-help">
            Stored in <code>crewdeck.json</code> at the workspace root. Agents without a model use the default profile.
          </p>
        </header>
        {loadError && <div className="banner-error">Could not read the settings: {loadError}</div>}
        {fileProblems.length > 0 && (
          <div className="banner-error">
            crewdeck.json has problems and was not loaded; saving here replaces it.
            <ul className="dialog-problems">
              {fileProblems.map((p, i) => (
                <li key={i}>
                  <code>{p.path}</code>: {p.message}
                </li>
              ))}
            </ul>
          </div>
        )}

        <ModelProfilesSection />

        <PricesSection />

        <McpServersSection />

        <TeamServerSection />
        <ApiKeysSection />

        <AppearanceSection />
      </div>
    </div>
  );
}
