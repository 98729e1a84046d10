import { FlowPredicateSchema } from '../../../../shared/model/flow';
import { isRecord } from '../../../commands/crewDraft';
import { controlId, Field, FieldProblems } from '../Field';
import { useProblemsAt } from '../problemsContext';
import { SelectField } from '../SelectField';
import type { BodyEditorProps } from './bodyEditorProps';

const OPS = FlowPredicateSchema.shape.op.options;
const OP_LABEL: Record<string, string> = {
  eq: '=',
  neq: '≠',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  contains: 'contains',
  not_contains: 'does not contain',
  matches: 'matches (regex)',
  exists: 'exists',
  not_exists: 'does not exist',
  truthy: 'is truthy',
  falsy: 'is falsy',
};
const NO_VALUE = new Set(['exists', 'not_exists', 'truthy', 'falsy']);

/** A value as typed: JSON when it parses (numbers, true, "quoted"), otherwise the text itself. */
export function parseRuleValue(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
const showValue = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? (parseRuleValue(v) === v ? v : JSON.stringify(v)) : JSON.stringify(v));

/** Rules in order: the first whose test holds chooses its route; otherwise the default route. */
export function RulesBodyEditor({ path, body, routes, set }: BodyEditorProps) {
  const rules = Array.isArray(body.rules) ? body.rules.map((r) => (isRecord(r) ? r : {})) : [];
  const own = useProblemsAt(`${path}.rules`, true);
  const routeOptions = routes.map((r) => ({ value: r, label: r }));
  const patchRule = (i: number, patch: Record<string, unknown>, editKey?: string) =>
    set(
      'rules',
      rules.map((r, j) => (j === i ? { ...r, ...patch } : r)),
      editKey,
    );
  const patchWhen = (i: number, rule: Record<string, unknown>, patch: Record<string, unknown>, editKey?: string) => {
    const when: Record<string, unknown> = { ...(isRecord(rule.when) ? rule.when : {}), ...patch };
    for (const [k, v] of Object.entries(patch)) if (v === undefined) delete when[k];
    patchRule(i, { when }, editKey);
  };
  return (
    <>
      <div className="insp-label">Rules (first match wins)</div>
      <div className="insp-list" data-testid="body-rules">
        <FieldProblems messages={own} />
        {rules.length === 0 && <div className="insp-empty">No rules: the default route is always chosen.</div>}
        {rules.map((rule, i) => {
          const when = isRecord(rule.when) ? rule.when : {};
          const op = typeof when.op === 'string' ? when.op : 'eq';
          const rp = `${path}.rules.${i}`;
          return (
            <div key={i} className="insp-card" data-testid={`rule-${i}`}>
              <div className="insp-card-head">
                <span className="insp-card-title">Rule {i + 1}</span>
                <button type="button" className="insp-icon-btn is-danger" aria-label={`Remove rule ${i + 1}`} onClick={() => set('rules', rules.filter((_, j) => j !== i))}>
                  ×
                </button>
              </div>
              <Field label="When" htmlFor={controlId(`${rp}.when.path`)} path={`${rp}.when`}>
                <input
                  id={controlId(`${rp}.when.path`)}
                  className="insp-input is-mono"
                  value={typeof when.path === 'string' ? when.path : ''}
                  placeholder="state.score"
                  spellCheck={false}
                  data-testid={`rule-${i}-path`}
                  onChange={(e) => patchWhen(i, rule, { path: e.target.value }, `${i}.path`)}
                />
              </Field>
              <div className="flow-rule">
                <select className="insp-input" aria-label={`Rule ${i + 1} test`} value={op} data-testid={`rule-${i}-op`} onChange={(e) => patchWhen(i, rule, { op: e.target.value, ...(NO_VALUE.has(e.target.value) ? { value: undefined } : {}) })}>
                  {OPS.map((o) => (
                    <option key={o} value={o}>
                      {OP_LABEL[o] ?? o}
                    </option>
                  ))}
                </select>
                {!NO_VALUE.has(op) && (
                  <input
                    className="insp-input is-mono"
                    aria-label={`Rule ${i + 1} value`}
                    value={showValue(when.value)}
                    placeholder="value"
                    spellCheck={false}
                    data-testid={`rule-${i}-value`}
                    onChange={(e) => patchWhen(i, rule, { value: parseRuleValue(e.target.value) }, `${i}.value`)}
                  />
                )}
              </div>
              <SelectField label="Then route" path={`${rp}.route`} value={typeof rule.route === 'string' ? rule.route : ''} options={routeOptions} onChange={(v) => patchRule(i, { route: v })} testId={`rule-${i}-route`} />
            </div>
          );
        })}
        <button type="button" className="btn insp-add" data-testid="add-rule" onClick={() => set('rules', [...rules, { when: { path: 'input', op: 'contains', value: '' }, route: routes[0] ?? '' }])}>
          + Add rule
        </button>
      </div>
      <SelectField label="Otherwise route" path={`${path}.default`} value={typeof body.default === 'string' ? body.default : ''} options={routeOptions} onChange={(v) => set('default', v)} testId="field-body-default" />
      <p className="insp-hint">Paths: state.field, input (the triggering output), input.field (the output parsed as JSON).</p>
    </>
  );
}
