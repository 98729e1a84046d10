import { isRecord } from '../../../commands/crewDraft';
import type { FlowDraft } from '../../../commands/flow/flowDraft';
import { updateFlow } from '../../../commands/flow/updateFlow';
import { useDocumentStore } from '../../../stores/documentStore';
import { CheckField } from '../CheckField';
import { IdField } from '../IdField';
import { InputsEditor } from '../InputsEditor';
import { JsonField } from '../JsonField';
import { NumberField } from '../NumberField';
import { OtherProblems } from '../OtherProblems';
import { Section } from '../Section';
import { TextField } from '../TextField';
import { FlowHeader } from './FlowHeader';

const FIELDS = ['kind', 'version', 'id', 'name', 'description', 'persist', 'maxMethodCalls', 'state', 'inputs', 'methods', 'layout'];

/** Flow-level fields; methods have their own forms (select a node). */
export function FlowForm({ doc }: { doc: FlowDraft }) {
  const perform = useDocumentStore.getState().perform;
  const d = doc as Record<string, unknown>;
  const set = (field: string, value: unknown, coalesce = true) => perform(updateFlow({ [field]: value }, { label: `Edit flow ${field}`, coalesceKey: coalesce ? `flow:${field}` : undefined }));
  const state = isRecord(d.state) ? d.state : {};
  const setState = (field: 'initial' | 'schema', value: unknown) => {
    const next: Record<string, unknown> = { ...state };
    if (value === undefined) delete next[field];
    else next[field] = value;
    perform(updateFlow({ state: next }, { label: `Edit flow state ${field}`, coalesceKey: `flow:state:${field}` }));
  };
  return (
    <>
      <FlowHeader kind="flow" icon="router" kindLabel="Flow" title={typeof d.name === 'string' && d.name ? d.name : 'Untitled flow'} />
      <OtherProblems prefix="" fields={FIELDS} />
      <Section title="Flow">
        <TextField label="Name" path="name" value={d.name} onChange={(v) => set('name', v ?? '')} testId="field-flow-name" />
        <IdField
          path="id"
          value={d.id}
          hint="Runs are filed under this id."
          testId="field-flow-id"
          onCommit={(next) => {
            if (!/^[A-Za-z0-9_-]+$/.test(next)) return 'Ids may only contain letters, digits, _ and -.';
            perform(updateFlow({ id: next }, { label: 'Edit flow id' }));
            return undefined;
          }}
        />
        <TextField label="Description" path="description" value={d.description} multiline rows={2} optional onChange={(v) => set('description', v)} testId="field-flow-description" />
      </Section>
      <Section title="Running">
        <CheckField
          label="Persist state after every method"
          path="persist"
          value={d.persist}
          defaultValue={true}
          hint="Lets a run resume where it stopped (also after a restart)"
          onChange={(v) => set('persist', v, false)}
          testId="field-flow-persist"
        />
        <NumberField label="Max method calls" path="maxMethodCalls" value={d.maxMethodCalls} min={1} placeholder="100" hint="Stops loops through routes." onChange={(v) => set('maxMethodCalls', v)} testId="field-flow-maxMethodCalls" />
      </Section>
      <Section title="State">
        <JsonField
          label="Initial state"
          path="state.initial"
          value={state.initial}
          expect="object"
          rows={5}
          placeholder={'{ "draft": "", "attempts": 0 }'}
          hint="Templates read it as {state.field}; inputs are set on it at kickoff."
          onChange={(v) => setState('initial', v)}
          testId="field-flow-state-initial"
        />
        <JsonField
          label="State schema (JSON Schema)"
          path="state.schema"
          value={state.schema}
          expect="object"
          rows={6}
          placeholder={'{ "type": "object", "properties": { … } }'}
          hint="Checked after every method; a violation fails the method."
          onChange={(v) => setState('schema', v)}
          testId="field-flow-state-schema"
        />
      </Section>
      <Section title="Inputs">
        <InputsEditor path="inputs" value={d.inputs} onChange={(v) => set('inputs', v)} />
      </Section>
    </>
  );
}
