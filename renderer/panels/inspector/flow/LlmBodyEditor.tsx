import { JsonField } from '../JsonField';
import { ModelRefEditor } from '../ModelRefEditor';
import { TextField } from '../TextField';
import { TEMPLATE_HINT, type BodyEditorProps } from './bodyEditorProps';

/** One model call: a prompt, the model, and optionally a JSON Schema the answer must match. */
export function LlmBodyEditor({ path, body, profiles, set }: BodyEditorProps) {
  return (
    <>
      <TextField label="Prompt" path={`${path}.prompt`} value={body.prompt} multiline rows={5} hint={TEMPLATE_HINT} onChange={(v) => set('prompt', v ?? '')} testId="field-body-prompt" />
      <ModelRefEditor label="Model" path={`${path}.llm`} value={body.llm} profiles={profiles} onChange={(v) => set('llm', v)} />
      <JsonField
        label="Output schema (JSON Schema)"
        path={`${path}.outputSchema`}
        value={body.outputSchema}
        expect="object"
        rows={6}
        placeholder={'{ "type": "object", "properties": { "score": { "type": "number" } } }'}
        hint="Optional: the answer is parsed as JSON and checked against it."
        onChange={(v) => set('outputSchema', v)}
        testId="field-body-outputSchema"
      />
    </>
  );
}
