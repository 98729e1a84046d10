import { useEffect, useRef, useState } from 'react';
import { setTrigger } from '../../../commands/flow/setTrigger';
import { conditionText } from '../../../canvas/flow/conditionText';
import { useDocumentStore } from '../../../stores/documentStore';
import { controlId, Field } from '../Field';

type Props = { nodeId: string; path: string; trigger: Record<string, unknown>; otherNames: string[] };

/**
 * Start toggle, the listen condition as people read it, and the condition as JSON (the escape hatch:
 * the canvas edits conditions by connecting). The JSON changes the document only while it parses.
 */
export function TriggerEditor({ nodeId, path, trigger, otherNames }: Props) {
  const perform = useDocumentStore.getState().perform;
  const start = trigger.start === true;
  const listen = 'listen' in trigger ? trigger.listen : undefined;
  const serialized = listen === undefined ? '' : JSON.stringify(listen, null, 1).replace(/\n\s*/g, ' ');
  const [text, setText] = useState(serialized);
  const [error, setError] = useState<string>();
  const seen = useRef(serialized);
  useEffect(() => {
    if (serialized !== seen.current) {
      seen.current = serialized;
      setText(serialized);
      setError(undefined);
    }
  }, [serialized]);
  const [refused, setRefused] = useState<string>();
  const startId = controlId(`${path}.start`);
  const jsonId = controlId(`${path}.listen`);

  return (
    <>
      <div className="insp-check">
        <input
          id={startId}
          type="checkbox"
          checked={start}
          data-testid="field-method-start"
          onChange={(e) => {
            const result = e.target.checked ? perform(setTrigger(nodeId, { start: true })) : otherNames[0] !== undefined ? perform(setTrigger(nodeId, { listen: otherNames[0] })) : { ok: false as const, reason: 'There is no other method to listen to.' };
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
      {!start && (
        <Field label="Listens to" htmlFor={jsonId} path={`${path}.listen`} hint='Connect on the canvas, or edit as JSON: "method_name", {"route": "label"}, {"or": [...]}, {"and": [...]}.'>
          <div className="flow-condition" data-testid="method-condition">
            {conditionText(listen)}
          </div>
          <textarea
            id={jsonId}
            className="insp-input is-mono"
            rows={2}
            value={text}
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            data-testid="field-method-listen"
            onChange={(e) => {
              setText(e.target.value);
              let parsed: unknown;
              try {
                parsed = JSON.parse(e.target.value);
              } catch (err) {
                setError(`Not valid JSON: ${(err as Error).message}`);
                return;
              }
              setError(undefined);
              seen.current = JSON.stringify(parsed, null, 1).replace(/\n\s*/g, ' ');
              perform(setTrigger(nodeId, { listen: parsed }, { coalesceKey: `${nodeId}:listen` }));
            }}
          />
          {error && (
            <div className="insp-error" role="alert" data-testid="json-error">
              {error}
            </div>
          )}
        </Field>
      )}
    </>
  );
}
