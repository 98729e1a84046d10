import { JsonField } from '../JsonField';
import { NumberField } from '../NumberField';
import { TextField } from '../TextField';
import { TEMPLATE_HINT, type BodyEditorProps } from './bodyEditorProps';

/** Runs a crew, agent or model call once per item of a state list; the results go to a state field. */
export function ForEachBodyEditor({ path, body, set }: BodyEditorProps) {
  return (
    <>
      <TextField label="Items" path={`${path}.items`} value={body.items} placeholder="{state.chapters}" hint="The list to go through: a template naming a state list." onChange={(v) => set('items', v ?? '')} testId="field-body-items" />
      <TextField label="Results into" path={`${path}.into`} value={body.into} placeholder="chapter_texts" hint="The state field that gets the results, in item order." onChange={(v) => set('into', v ?? '')} testId="field-body-into" />
      <NumberField label="At the same time" path={`${path}.concurrency`} value={body.concurrency} placeholder="4" min={1} onChange={(v) => set('concurrency', v)} testId="field-body-concurrency" />
      <JsonField
        label="Body per item (a crew, agent or llm body)"
        path={`${path}.body`}
        value={body.body}
        expect="object"
        rows={6}
        placeholder={'{ "type": "llm", "prompt": "Write chapter {index}: {item}" }'}
        hint={`${TEMPLATE_HINT} Inside, {item} is the current item and {index} its position (from 0).`}
        onChange={(v) => set('body', v)}
        testId="field-body-body"
      />
    </>
  );
}
