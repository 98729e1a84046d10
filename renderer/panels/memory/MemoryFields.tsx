import { useId } from 'react';

export interface MemoryFieldValues {
  content: string;
  /** Comma-separated, as typed. */
  categories: string;
  importance: number;
  private: boolean;
}

/** "cost, site , cost" → ["cost", "site"]. */
export function parseCategories(text: string): string[] {
  return [...new Set(text.split(',').map((c) => c.trim()).filter((c) => c !== ''))];
}

/** The editable fields of a memory, shared by the add and edit dialogs. */
export function MemoryFields({ values, onChange }: { values: MemoryFieldValues; onChange(values: MemoryFieldValues): void }) {
  const id = useId();
  return (
    <>
      <label className="dialog-label" htmlFor={`${id}-content`}>
        Content
      </label>
      <textarea
        id={`${id}-content`}
        className="dialog-textarea"
        data-testid="memory-field-content"
        data-autofocus
        rows={5}
        value={values.content}
        onChange={(e) => onChange({ ...values, content: e.target.value })}
      />
      <div className="memory-fields-row">
        <div className="memory-field-grow">
          <label className="dialog-label" htmlFor={`${id}-categories`}>
            Categories
          </label>
          <input
            id={`${id}-categories`}
            className="dialog-input"
            data-testid="memory-field-categories"
            placeholder="comma, separated"
            value={values.categories}
            onChange={(e) => onChange({ ...values, categories: e.target.value })}
          />
        </div>
        <div>
          <label className="dialog-label" htmlFor={`${id}-importance`}>
            Importance <span className="memory-importance-value">{values.importance.toFixed(2)}</span>
          </label>
          <input
            id={`${id}-importance`}
            type="range"
            min={0}
            max={1}
            step={0.05}
            data-testid="memory-field-importance"
            value={values.importance}
            onChange={(e) => onChange({ ...values, importance: Number(e.target.value) })}
          />
        </div>
      </div>
      <label className="memory-private-toggle memory-field-private">
        <input type="checkbox" data-testid="memory-field-private" checked={values.private} onChange={(e) => onChange({ ...values, private: e.target.checked })} />
        Private — left out of recall unless a search asks for private memories
      </label>
    </>
  );
}
