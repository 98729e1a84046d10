import { NumberField } from '../NumberField';
import { CodeEditor } from './CodeEditor';
import type { BodyEditorProps } from './bodyEditorProps';

/** Sandboxed JavaScript (QuickJS): the code box and the sandbox's contract. */
export function ScriptBodyEditor({ path, body, routes, set }: BodyEditorProps) {
  return (
    <>
      <CodeEditor label="Code" path={`${path}.code`} value={body.code} onChange={(v) => set('code', v)} testId="field-body-code" />
      <div className="flow-contract" data-testid="script-contract">
        The script runs in a sandbox (no <code>require</code>, files or network) and gets <code>state</code> (the flow state) and <code>input</code> (the
        triggering method’s output). It <code>return</code>s this method’s output; it may set fields on <code>state</code>
        {routes.length > 0 ? (
          <>
            {' '}
            and must choose a route by setting <code>route</code> to one of: {routes.map((r, i) => <code key={r}>{`${i ? ', ' : ''}${r}`}</code>)}
          </>
        ) : (
          <>
            {' '}
            and set <code>route</code> when the method is a router (add routes below)
          </>
        )}
        . Errors report their line number.
      </div>
      <NumberField label="Time limit (ms)" path={`${path}.timeoutMs`} value={body.timeoutMs} min={1} placeholder="1000" onChange={(v) => set('timeoutMs', v)} testId="field-body-timeoutMs" />
    </>
  );
}
