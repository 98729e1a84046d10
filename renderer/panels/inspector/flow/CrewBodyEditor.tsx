import { useMemo } from 'react';
import { useWorkspaceStore } from '../../../stores/workspaceStore';
import { controlId, Field } from '../Field';
import { TemplateMapEditor } from './TemplateMapEditor';
import { TEMPLATE_HINT, type BodyEditorProps } from './bodyEditorProps';

/** Runs a crew file of the workspace, with its inputs filled from templates. */
export function CrewBodyEditor({ path, body, set }: BodyEditorProps) {
  const documents = useWorkspaceStore((s) => s.documents);
  const crews = useMemo(() => documents.filter((d) => d.kind === 'crew').map((d) => d.path), [documents]);
  const id = controlId(`${path}.file`);
  return (
    <>
      <Field label="Crew file" htmlFor={id} path={`${path}.file`} hint="A *.crew.json of this workspace; its output is this method's output.">
        <input
          id={id}
          className="insp-input is-mono"
          list={`${id}-crews`}
          value={typeof body.file === 'string' ? body.file : ''}
          spellCheck={false}
          data-testid="field-body-file"
          onChange={(e) => set('file', e.target.value)}
        />
        <datalist id={`${id}-crews`}>
          {crews.map((p) => (
            <option key={p} value={p} />
          ))}
        </datalist>
      </Field>
      <div className="insp-label">Crew inputs</div>
      <TemplateMapEditor
        path={`${path}.inputs`}
        value={body.inputs}
        keyLabel="Input name"
        valuePlaceholder="{state.topic}"
        addLabel="+ Add input"
        empty="No inputs: the crew gets its defaults."
        testId="body-inputs"
        onChange={(v, editKey) => set('inputs', Object.keys(v).length > 0 ? v : undefined, editKey)}
      />
      <p className="insp-hint">{TEMPLATE_HINT}</p>
    </>
  );
}
