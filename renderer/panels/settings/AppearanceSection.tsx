import { useUiStore } from '../../stores/uiStore';

/** The theme: dark or light. */
export function AppearanceSection() {
  const theme = useUiStore((s) => s.theme);
  return (
    <section className="settings-section" aria-labelledby="settings-appearance">
      <h2 id="settings-appearance">Appearance</h2>
      <div className="settings-theme" role="radiogroup" aria-label="Theme">
        {(['dark', 'light'] as const).map((t) => (
          <label key={t} className="settings-theme-option" data-selected={theme === t}>
            <input type="radio" name="theme" value={t} checked={theme === t} onChange={() => useUiStore.getState().setTheme(t)} />
            {t === 'dark' ? 'Dark' : 'Light'}
          </label>
        ))}
      </div>
    </section>
  );
}
