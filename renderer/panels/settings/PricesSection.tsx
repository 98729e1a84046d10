import { useEffect, useEffectEvent, useState } from 'react';
import { DEFAULT_PRICES, DEFAULT_PRICES_DATE, MAX_PRICE_PER_MTOK, type ModelPrice, type PriceTable } from '../../../shared/model/prices';
import { useSettingsStore } from '../../stores/settingsStore';

interface PriceDraft {
  key: number;
  model: string;
  input: string;
  output: string;
  cached: string;
}

const FIELDS = [
  ['input', 'Input $/M tokens'],
  ['cached', 'Cached input $/M tokens'],
  ['output', 'Output $/M tokens'],
] as const;

let nextKey = 1;
function toDrafts(prices: PriceTable | undefined): PriceDraft[] {
  return Object.entries(prices ?? {}).map(([model, p]) => ({
    key: nextKey++,
    model,
    input: String(p.inputPerMTok),
    output: String(p.outputPerMTok),
    cached: p.cachedInputPerMTok === undefined ? '' : String(p.cachedInputPerMTok),
  }));
}

/** The table to save, or the first problem (row and field) that keeps it from being saved. */
export function pricesFromDrafts(drafts: PriceDraft[]): { prices?: PriceTable; problem?: string } {
  const prices: PriceTable = {};
  for (const d of drafts) {
    const model = d.model.trim();
    if (model === '') return { problem: 'Every price needs a model name' };
    if (Object.prototype.hasOwnProperty.call(prices, model)) return { problem: `"${model}" is priced twice` };
    const number = (text: string, label: string, optional: boolean): number | undefined | string => {
      if (text.trim() === '' && optional) return undefined;
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n) || n < 0) return `${model}: ${label} must be a number ≥ 0, got "${text}"`;
      return n > MAX_PRICE_PER_MTOK ? `${model}: ${label} must be at most ${MAX_PRICE_PER_MTOK.toLocaleString('en-US')} (US dollars per million tokens), got "${text}"` : n;
    };
    const input = number(d.input, 'input price', false);
    const output = number(d.output, 'output price', false);
    const cached = number(d.cached, 'cached input price', true);
    for (const v of [input, output, cached]) if (typeof v === 'string') return { problem: v };
    const price: ModelPrice = { inputPerMTok: input as number, outputPerMTok: output as number };
    if (cached !== undefined) price.cachedInputPerMTok = cached as number;
    prices[model] = price;
  }
  return { prices };
}

/** Settings → Models: per-workspace prices (`crewdeck.json` `prices`) over the built-in defaults. */
export function PricesSection() {
  const settings = useSettingsStore((s) => s.settings);
  const saving = useSettingsStore((s) => s.saving);
  const [drafts, setDrafts] = useState<PriceDraft[]>([]);
  const [dirty, setDirty] = useState(false);
  const [problem, setProblem] = useState<string>();

  const showSaved = useEffectEvent((prices: PriceTable | undefined) => {
    if (!dirty) setDrafts(toDrafts(prices));
  });
  // Only when the saved settings change, not on every edit (nor when the form stops being dirty).
  useEffect(() => showSaved(settings?.prices), [settings]);

  const edit = (next: PriceDraft[]) => {
    setDrafts(next);
    setDirty(true);
    setProblem(undefined);
  };
  const change = (key: number, field: keyof PriceDraft, value: string) => edit(drafts.map((d) => (d.key === key ? { ...d, [field]: value } : d)));

  const save = async () => {
    if (!settings) return;
    const { prices, problem: found } = pricesFromDrafts(drafts);
    if (!prices) return setProblem(found);
    const { prices: _old, ...rest } = settings;
    if (await useSettingsStore.getState().save(Object.keys(prices).length > 0 ? { ...rest, prices } : rest)) setDirty(false);
  };

  return (
    <section className="settings-section" aria-labelledby="settings-prices" data-testid="settings-prices">
      <h2 id="settings-prices">Model prices</h2>
      <p className="settings-help">
        US dollars per million tokens, by model name (or <code>provider:model</code>), for the cost of runs. Built-in prices for{' '}
        {Object.keys(DEFAULT_PRICES).length} OpenAI model names are as of {DEFAULT_PRICES_DATE}; a price here overrides them. A run on a model with no price shows
        “no price for &lt;model&gt;” instead of a cost.
      </p>
      <table className="settings-keys">
        <tbody>
          {drafts.map((d) => (
            <tr key={d.key} data-testid="price-row">
              <td>
                <input className="settings-input mono" aria-label="Model name" placeholder="gpt-4o-mini" value={d.model} onChange={(e) => change(d.key, 'model', e.target.value)} />
              </td>
              {FIELDS.map(([field, label]) => (
                <td key={field}>
                  <input className="settings-input mono" aria-label={label} placeholder={field === 'cached' ? '= input' : label} inputMode="decimal" value={d[field]} onChange={(e) => change(d.key, field, e.target.value)} />
                </td>
              ))}
              <td>
                <button className="btn small" onClick={() => edit(drafts.filter((x) => x.key !== d.key))}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="settings-savebar">
        <button className="btn small" data-testid="price-add" onClick={() => edit([...drafts, { key: nextKey++, model: '', input: '', output: '', cached: '' }])}>
          Add a price
        </button>
        {problem && <span className="settings-problem">{problem}</span>}
        <span className="settings-spacer" />
        <button className="btn primary" data-testid="prices-save" disabled={!dirty || saving || !settings} onClick={() => void save()}>
          Save prices
        </button>
      </div>
    </section>
  );
}
