import { TemplateMapEditor } from './TemplateMapEditor';
import { TEMPLATE_HINT, type BodyEditorProps } from './bodyEditorProps';

/** Sets state fields from templates. */
export function SetStateBodyEditor({ path, body, set }: BodyEditorProps) {
  return (
    <>
      <div className="insp-label">State fields</div>
      <TemplateMapEditor
        path={`${path}.set`}
        value={body.set}
        keyLabel="State field"
        valuePlaceholder="{input}"
        addLabel="+ Add field"
        empty="Sets nothing yet."
        testId="body-set"
        onChange={(v, editKey) => set('set', v, editKey)}
      />
      <p className="insp-hint">{TEMPLATE_HINT}</p>
    </>
  );
}
