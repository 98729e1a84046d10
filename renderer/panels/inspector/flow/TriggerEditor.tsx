import { useState } from 'react';
import { setTrigger } from '../../../commands/flow/setTrigger';
import { useDocumentStore } from '../../../stores/documentStore';
import { controlId, Field } from '../Field';
import { ListenEditor } from './ListenEditor';

type Props = { nodeId: string; path: string; trigger: Record<string, unknown>; otherNames: string[]; otherRoutes: string[] };

/**
 * Start toggle and what the method listens to: one editor (ListenEditor, chips of methods and routes
 * with or/and), the same condition the canvas edits by connecting. A start method may also listen
 * (`{ start: true, listen: … }`, CrewAI's `@start("retry")`): it runs at the start and again then.
 */
export function TriggerEditor({ nodeId, path, trigger, otherNames, otherRoutes }: Props) {
  const perform = useDocumentStore.getState().perform;
  const start = trigger.start === true;
  const listen = 'listen' in trigger ? trigger.listen : undefined;
  const [refused, setRefused] = useState<string>();
  const startId = controlId(`${path}.start`);
  const listenId = controlId(`${path}.listen`);

  return (
    <>
      <div className="insp-check">
        <input
          id={startId}
          type="checkbox"
          checked={start}
          data-testid="field-method-start"
          onChange={(e) => {
            // Unchecked, a start that also listens keeps what it listens to (it only stops running at the start).
            const listenTo = listen !== undefined ? listen : otherNames[0];
            const result = e.target.checked
              ? perform(setTrigger(nodeId, { start: true }))
              : listenTo !== undefined
                ? perform(setTrigger(nodeId, { listen: listenTo }))
                : { ok: false as const, reason: 'There is no other method to listen to.' };
            setRefused(result.ok ? undefined : result.reason);
          }}
        />
        <label htmlFor={startId}>
          Start method
          <span className="insp-check-hint">Runs when the flow starts; otherwise it listens to other methods</span>
        </label>
      </div>
      {refused && (
        <div className="insp-error" role="alert">
          {refused}
        </div>
      )}
      {start && (
        <Field
          label="Also runs when"
          htmlFor={listenId}
          path={`${path}.listen`}
          hint={'Optional: a start method that also listens runs at the start and again each time these complete or are chosen (CrewAI\'s @start("retry")).'}
        >
          <ListenEditor
            condition={listen}
            methods={otherNames}
            routes={otherRoutes}
            addId={listenId}
            optional
            onChange={(next) => {
              const result = perform(setTrigger(nodeId, next === undefined ? { start: true } : { start: true, listen: next }));
              setRefused(result.ok ? undefined : result.reason);
            }}
          />
        </Field>
      )}
      {!start && (
        <Field label="Listens to" htmlFor={listenId} path={`${path}.listen`} hint="Runs when these complete (a method) or are chosen (a route). Connecting on the canvas edits the same list; drop on a gate to group.">
          <ListenEditor
            condition={listen}
            methods={otherNames}
            routes={otherRoutes}
            addId={listenId}
            onChange={(next) => {
              const result = perform(setTrigger(nodeId, { listen: next }));
              setRefused(result.ok ? undefined : result.reason);
            }}
          />
        </Field>
      )}
    </>
  );
}
