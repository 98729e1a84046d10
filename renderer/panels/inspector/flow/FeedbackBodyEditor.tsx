import { CheckField } from '../CheckField';
import { FieldProblems } from '../Field';
import { ModelRefEditor } from '../ModelRefEditor';
import { useProblemsAt } from '../problemsContext';
import { SelectField } from '../SelectField';
import { TextField } from '../TextField';
import { TEMPLATE_HINT, type BodyEditorProps } from './bodyEditorProps';

/**
 * A person reviews the triggering output: the message, the outcomes the feedback is classified into
 * (a router's outcomes are its routes), the outcome for empty feedback, and whether to learn lessons.
 */
export function FeedbackBodyEditor({ path, body, routes, profiles, set }: BodyEditorProps) {
  const outcomes = Array.isArray(body.outcomes) ? body.outcomes.map(String) : [];
  const choices = routes.length > 0 ? routes : outcomes;
  const outcomeProblems = useProblemsAt(`${path}.outcomes`);
  return (
    <>
      <TextField label="Message to the reviewer" path={`${path}.message`} value={body.message} multiline rows={3} hint={TEMPLATE_HINT} onChange={(v) => set('message', v ?? '')} testId="field-body-message" />
      <div className="insp-label">Outcomes</div>
      {routes.length > 0 ? (
        <p className="insp-hint" data-testid="feedback-outcomes-are-routes">
          This method is a router: its outcomes are its routes ({routes.join(', ')}). Edit them under Routes.
        </p>
      ) : (
        <div className="insp-list" data-testid="feedback-outcomes">
          <FieldProblems messages={outcomeProblems} />
          {outcomes.length === 0 && <div className="insp-empty">No outcomes: the feedback is only text.</div>}
          {outcomes.map((o, i) => (
            <div key={i} className="flow-rule">
              <input
                className="insp-input is-mono"
                aria-label={`Outcome ${i + 1}`}
                value={o}
                spellCheck={false}
                data-testid={`feedback-outcome-${i}`}
                onChange={(e) => set('outcomes', outcomes.map((x, j) => (j === i ? e.target.value : x)), `${i}`)}
              />
              <button
                type="button"
                className="insp-icon-btn is-danger"
                aria-label={`Remove outcome ${o}`}
                onClick={() => {
                  const next = outcomes.filter((_, j) => j !== i);
                  set('outcomes', next.length > 0 ? next : undefined);
                  if (body.defaultOutcome === o) set('defaultOutcome', undefined);
                }}
              >
                ×
              </button>
            </div>
          ))}
          <button
            type="button"
            className="btn insp-add"
            data-testid="feedback-add-outcome"
            onClick={() => {
              let n = outcomes.length + 1;
              while (outcomes.includes(`outcome-${n}`)) n += 1;
              set('outcomes', [...outcomes, `outcome-${n}`]);
            }}
          >
            + Add outcome
          </button>
        </div>
      )}
      {choices.length > 0 && (
        <SelectField
          label="Outcome for empty feedback"
          path={`${path}.defaultOutcome`}
          value={typeof body.defaultOutcome === 'string' ? body.defaultOutcome : ''}
          options={[{ value: '', label: '— none —' }, ...choices.map((c) => ({ value: c, label: c }))]}
          onChange={(v) => set('defaultOutcome', v || undefined)}
          testId="field-body-defaultOutcome"
        />
      )}
      <CheckField
        label="Learn from the feedback"
        path={`${path}.learn`}
        value={body.learn}
        defaultValue={false}
        hint="Distils lessons into memory; later reviews recall them to revise the output first"
        onChange={(v) => set('learn', v)}
        testId="field-body-learn"
      />
      <ModelRefEditor label="Model" path={`${path}.llm`} value={body.llm} profiles={profiles} hint="Classifies the feedback into an outcome (and distils lessons)." onChange={(v) => set('llm', v)} />
    </>
  );
}
