import type { RunDocument } from './useRunDocument';

/** One field per input of the document (a long default gets a text area), the first one focused. */
export function RunInputFields({ loaded, values, onValues }: { loaded: RunDocument; values: Record<string, string>; onValues(values: Record<string, string>): void }) {
  return (
    <>
      {loaded.inputs.length === 0 && <div className="dialog-hint">This {loaded.noun} takes no inputs.</div>}
      {loaded.inputs.map((input, index) => {
        const id = `run-input-${input.name}`;
        const long = (input.default ?? '').length > 80 || (input.default ?? '').includes('\n');
        return (
          <div className="dialog-field" key={input.name}>
            <label htmlFor={id} className="dialog-field-label">
              <code>{input.name}</code>
              {input.default === undefined && <span className="dialog-required">required</span>}
              {input.undeclared && <span className="dialog-note">used in the {loaded.noun}, not declared</span>}
            </label>
            {input.description && <div className="dialog-field-help">{input.description}</div>}
            {long ? (
              <textarea id={id} data-testid={id} autoFocus={index === 0} className="dialog-textarea" rows={3} value={values[input.name] ?? ''} onChange={(e) => onValues({ ...values, [input.name]: e.target.value })} />
            ) : (
              <input id={id} data-testid={id} autoFocus={index === 0} className="dialog-input" value={values[input.name] ?? ''} placeholder={input.default} onChange={(e) => onValues({ ...values, [input.name]: e.target.value })} />
            )}
          </div>
        );
      })}
    </>
  );
}
