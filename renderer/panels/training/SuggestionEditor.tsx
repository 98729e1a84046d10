import { useEffect, useEffectEvent, useState } from 'react';
import type { SuggestionVersion } from '../../../shared/training';
import { useTrainingStore } from '../../stores/trainingStore';

const MAX_SUGGESTIONS = 100;
const MAX_LENGTH = 2000;

/**
 * A version's suggestions as an editable list: reword, add, remove, reorder; Save stores the whole
 * list (the earlier one goes to the version's history), Revert drops the changes.
 */
export function SuggestionEditor({ version }: { version: SuggestionVersion }) {
  const [items, setItems] = useState(version.suggestions);
  const [saving, setSaving] = useState(false);
  // The stored list changed (saved here, or elsewhere): start over from it.
  const stored = JSON.stringify(version.suggestions);
  const startOver = useEffectEvent(() => setItems(version.suggestions));
  useEffect(() => startOver(), [stored]);

  const dirty = JSON.stringify(items) !== stored;
  const empty = items.some((s) => s.trim() === '');
  const tooLong = items.some((s) => s.length > MAX_LENGTH);

  const save = async () => {
    setSaving(true);
    await useTrainingStore.getState().setSuggestions({ role: version.role, version: version.version }, items.map((s) => s.trim()));
    setSaving(false);
  };
  const move = (from: number, to: number) => {
    const next = [...items];
    const [item] = next.splice(from, 1);
    // Each row's buttons move that row: there is always an item at its index.
    if (item === undefined) return;
    next.splice(to, 0, item);
    setItems(next);
  };

  return (
    <section className="training-suggestions" aria-label="Suggestions" data-testid="training-suggestions">
      <div className="training-section-label">Suggestions (appended to the task prompts of {version.role} while active)</div>
      <ol className="training-suggestion-list">
        {items.map((text, i) => (
          <li key={i} className="training-suggestion" data-testid="suggestion-item">
            <span className="training-suggestion-number" aria-hidden>
              {i + 1}
            </span>
            <textarea
              className="training-suggestion-input"
              data-testid="suggestion-input"
              aria-label={`Suggestion ${i + 1}`}
              aria-invalid={text.trim() === '' || text.length > MAX_LENGTH}
              rows={Math.min(4, Math.max(1, Math.ceil(text.length / 90)))}
              value={text}
              onChange={(e) => setItems(items.map((s, j) => (j === i ? e.target.value : s)))}
            />
            <span className="training-suggestion-actions">
              <button className="btn ghost small" aria-label={`Move suggestion ${i + 1} up`} disabled={i === 0} onClick={() => move(i, i - 1)}>
                ↑
              </button>
              <button className="btn ghost small" aria-label={`Move suggestion ${i + 1} down`} disabled={i === items.length - 1} onClick={() => move(i, i + 1)}>
                ↓
              </button>
              <button className="btn ghost small" data-testid="suggestion-remove" aria-label={`Remove suggestion ${i + 1}`} onClick={() => setItems(items.filter((_, j) => j !== i))}>
                ✕
              </button>
            </span>
          </li>
        ))}
      </ol>
      {items.length === 0 && <div className="training-muted">No suggestions: while active, this version adds nothing to the prompt.</div>}
      <div className="training-editor-foot">
        <button className="btn small" data-testid="suggestion-add" disabled={items.length >= MAX_SUGGESTIONS} onClick={() => setItems([...items, ''])}>
          + Add suggestion
        </button>
        <span className="training-spacer" />
        {dirty && empty && <span className="training-field-error">A suggestion must not be empty.</span>}
        {dirty && tooLong && <span className="training-field-error">A suggestion is limited to {MAX_LENGTH} characters.</span>}
        <button className="btn small" data-testid="suggestions-revert" disabled={!dirty || saving} onClick={() => setItems(version.suggestions)}>
          Revert
        </button>
        <button className="btn small primary" data-testid="suggestions-save" disabled={!dirty || saving || empty || tooLong} onClick={() => void save()}>
          {saving ? 'Saving…' : 'Save suggestions'}
        </button>
      </div>
      {version.history.length > 0 && (
        <details className="training-history" data-testid="training-history">
          <summary>
            Earlier lists ({version.history.length})
          </summary>
          <ol>
            {[...version.history].reverse().map((h) => (
              <li key={h.editedAt}>
                <div className="training-muted">
                  until {new Date(h.editedAt).toLocaleString()} · {h.reason}
                </div>
                <ul>
                  {h.suggestions.map((s, i) => (
                    <li key={i}>{s}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}
