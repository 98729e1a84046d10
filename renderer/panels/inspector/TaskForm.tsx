import { NEW_TASK_DESCRIPTION, NEW_TASK_EXPECTED_OUTPUT } from '../../commands/addTask';
import { deleteNodes } from '../../commands/deleteNodes';
import { renameEntity } from '../../commands/renameEntity';
import { reorderTask } from '../../commands/reorderTask';
import { updateEntity } from '../../commands/updateEntity';
import { agentsOf, entry, isRecord, managerAgentId, stringField, tasksOf, type CrewDraft, type TaskDraft } from '../../commands/crewDraft';
import { useDocumentStore } from '../../stores/documentStore';
import { CheckField } from './CheckField';
import { ConditionEditor } from './ConditionEditor';
import { ContextEditor } from './ContextEditor';
import { GuardrailsEditor } from './GuardrailsEditor';
import { IdField } from './IdField';
import { InspectorHeader } from './InspectorHeader';
import { JsonField } from './JsonField';
import { NumberField } from './NumberField';
import { OtherProblems } from './OtherProblems';
import { Section } from './Section';
import { SelectField } from './SelectField';
import { TextField } from './TextField';
import { ToolRefsEditor } from './ToolRefsEditor';
import { controlId } from './Field';

const FIELDS = ['id', 'name', 'description', 'expectedOutput', 'agentId', 'context', 'async', 'humanInput', 'guardrails', 'guardrailMaxRetries', 'output', 'outputFile', 'condition', 'tools'];

type Props = { nodeId: string; index: number; task: Partial<TaskDraft>; doc: CrewDraft; profiles: readonly string[] };

/** Every field of a task (SPEC §2.1). */
export function TaskForm({ nodeId, index, task, doc, profiles }: Props) {
  const path = `tasks.${index}`;
  const perform = useDocumentStore.getState().perform;
  const set = (field: string, value: unknown, coalesce = true) =>
    perform(updateEntity(nodeId, { [field]: value }, { coalesceKey: coalesce ? `${nodeId}:${field}` : undefined }));
  const t = task as Record<string, unknown>;
  const tasks = tasksOf(doc);
  const title = stringField(t.name) || stringField(t.id) || `Task ${index + 1}`;
  const managerId = managerAgentId(doc);
  const agentOptions = [
    { value: '', label: doc.process === 'hierarchical' ? '— none (the manager decides) —' : '— none —' },
    ...agentsOf(doc)
      .map((a) => entry(a))
      .filter((a) => typeof a.id === 'string' && a.id !== managerId)
      .map((a) => ({ value: a.id as string, label: `${stringField(a.role) || a.id} (${a.id})` })),
  ];
  const earlier = tasks
    .slice(0, index)
    .map((x, i) => ({ id: stringField(entry(x).id) ?? '', label: `${i + 1}. ${stringField(entry(x).name) || stringField(entry(x).id) || `Task ${i + 1}`}` }))
    .filter((x) => x.id !== '');
  const output = isRecord(t.output) ? t.output : undefined;
  const setOutput = (patch: Record<string, unknown>) => {
    const next: Record<string, unknown> = { ...output };
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) delete next[k];
      else next[k] = v;
    }
    set('output', Object.keys(next).length > 0 ? next : undefined, 'schema' in patch);
  };
  const overridesTools = Array.isArray(t.tools);

  return (
    <>
      <InspectorHeader kind="task" kindLabel={`Task ${index + 1} of ${tasks.length}`} title={title}>
        <button type="button" className="btn ghost" aria-label="Move task up" title="Run earlier" disabled={index === 0} onClick={() => perform(reorderTask(nodeId, -1))} data-testid="inspector-move-up">
          ▲
        </button>
        <button
          type="button"
          className="btn ghost"
          aria-label="Move task down"
          title="Run later"
          disabled={index === tasks.length - 1}
          onClick={() => perform(reorderTask(nodeId, 1))}
          data-testid="inspector-move-down"
        >
          ▼
        </button>
        <button type="button" className="btn ghost is-danger" onClick={() => perform(deleteNodes([nodeId]))} data-testid="inspector-delete">
          Delete
        </button>
      </InspectorHeader>
      <OtherProblems prefix={path} fields={FIELDS} />
      <Section title="Task">
        <div className="insp-row is-wide-last">
          <IdField
            path={`${path}.id`}
            value={t.id}
            testId="field-id"
            onCommit={(next) => {
              const r = perform(renameEntity(nodeId, next));
              return r.ok ? undefined : r.reason;
            }}
          />
          <TextField label="Name" path={`${path}.name`} value={t.name} optional onChange={(v) => set('name', v)} testId="field-name" />
        </div>
        <TextField label="Description" path={`${path}.description`} value={t.description} multiline rows={4} placeholder={NEW_TASK_DESCRIPTION} onChange={(v) => set('description', v ?? '')} testId="field-description" />
        <TextField label="Expected output" path={`${path}.expectedOutput`} value={t.expectedOutput} multiline rows={2} placeholder={NEW_TASK_EXPECTED_OUTPUT} onChange={(v) => set('expectedOutput', v ?? '')} testId="field-expectedOutput" />
      </Section>
      <Section title="Assignment and context">
        <SelectField label="Agent" path={`${path}.agentId`} value={stringField(t.agentId) ?? ''} options={agentOptions} onChange={(v) => set('agentId', v === '' ? undefined : v, false)} testId="field-agentId" />
        <ContextEditor path={`${path}.context`} value={t.context} earlier={earlier} onChange={(v) => set('context', v, false)} />
      </Section>
      <Section title="Execution">
        <CheckField label="Run asynchronously" path={`${path}.async`} value={t.async} defaultValue={false} onChange={(v) => set('async', v, false)} testId="field-async" />
        <CheckField label="A person reviews the output" path={`${path}.humanInput`} value={t.humanInput} defaultValue={false} onChange={(v) => set('humanInput', v, false)} testId="field-humanInput" />
        <ConditionEditor path={`${path}.condition`} value={t.condition} isFirst={index === 0} onChange={(v) => set('condition', v)} />
      </Section>
      <Section title="Guardrails">
        <GuardrailsEditor path={`${path}.guardrails`} value={t.guardrails} profiles={profiles} onChange={(v) => set('guardrails', v.length > 0 ? v : undefined)} />
        <NumberField label="Retries after a failed guardrail" path={`${path}.guardrailMaxRetries`} value={t.guardrailMaxRetries} min={0} placeholder="3" onChange={(v) => set('guardrailMaxRetries', v)} />
      </Section>
      <Section title="Output">
        <SelectField
          label="Format"
          path={`${path}.output.format`}
          value={typeof output?.format === 'string' ? output.format : ''}
          options={[
            { value: '', label: 'Not set (text)' },
            { value: 'text', label: 'Text' },
            { value: 'markdown', label: 'Markdown' },
            { value: 'json', label: 'JSON' },
          ]}
          onChange={(v) => setOutput({ format: v === '' ? undefined : v })}
          testId="field-output-format"
        />
        {(output?.format === 'json' || output?.schema !== undefined) && (
          <JsonField
            label="JSON Schema of the output"
            path={`${path}.output.schema`}
            value={output?.schema}
            expect="object"
            placeholder='{ "type": "object", "properties": { … } }'
            onChange={(v) => setOutput({ schema: v })}
            testId="field-output-schema"
          />
        )}
        <TextField label="Write output to file" path={`${path}.outputFile`} value={t.outputFile} optional mono placeholder="out/result.md" onChange={(v) => set('outputFile', v)} testId="field-outputFile" />
      </Section>
      <Section title="Task tools" defaultOpen={overridesTools}>
        <div className="insp-check">
          <input
            id={controlId(`${path}.tools-override`)}
            type="checkbox"
            checked={overridesTools}
            onChange={(e) => set('tools', e.target.checked ? [] : undefined, false)}
            data-testid="field-tools-override"
          />
          <label htmlFor={controlId(`${path}.tools-override`)}>
            Use these tools instead of the agent's
            <span className="insp-check-hint">Off: the agent's own tools</span>
          </label>
        </div>
        {overridesTools && <ToolRefsEditor path={`${path}.tools`} value={t.tools} onChange={(v) => set('tools', v, false)} />}
      </Section>
    </>
  );
}
