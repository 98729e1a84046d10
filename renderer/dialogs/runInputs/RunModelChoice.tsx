import { useConnectModelStore } from '../../panels/connect/connectModelStore';
import type { RunDocument } from './useRunDocument';

/** The model profile to run every agent with, or (no profiles yet) a link to connect a model. */
export function RunModelChoice({ loaded, model, onModel, onClose }: { loaded: RunDocument; model: string; onModel(model: string): void; onClose(): void }) {
  return (
    <>
      {loaded.profiles.length > 0 && (
        <div className="dialog-field">
          <label htmlFor="run-model" className="dialog-field-label">
            Model
          </label>
          <select id="run-model" data-testid="run-model" className="dialog-input" value={model} onChange={(e) => onModel(e.target.value)}>
            <option value="">As configured in the {loaded.noun}{loaded.defaultProfile ? ` (default: ${loaded.defaultProfile})` : ''}</option>
            {loaded.profiles.map((p) => (
              <option key={p} value={p}>
                {loaded.noun === 'flow' ? `Every model call and agent uses “${p}”` : `Every agent uses “${p}”`}
              </option>
            ))}
          </select>
        </div>
      )}
      {loaded.profiles.length === 0 && (
        <div className="dialog-hint" data-testid="run-model-hint">
          Runs use the models the {loaded.noun} names. To pick another model here,{' '}
          <button
            type="button"
            className="btn-link"
            data-testid="run-connect-model"
            onClick={() => {
              onClose();
              useConnectModelStore.getState().setOpen(true);
            }}
          >
            connect a model
          </button>
          .
        </div>
      )}
    </>
  );
}
