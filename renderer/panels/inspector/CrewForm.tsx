import { updateCrew } from '../../commands/updateCrew';
import { isRecord, type CrewDraft } from '../../commands/crewDraft';
import { useDocumentStore } from '../../stores/documentStore';
import { CheckField } from './CheckField';
import { CrewMemoryFields } from './CrewMemoryFields';
import { IdField } from './IdField';
import { InputsEditor } from './InputsEditor';
import { InspectorHeader } from './InspectorHeader';
import { KnowledgeSettingsFields } from './KnowledgeSettingsFields';
import { KnowledgeSourcesEditor } from './KnowledgeSourcesEditor';
import { ManagerEditor } from './ManagerEditor';
import { ModelRefEditor } from './ModelRefEditor';
import { NumberField } from './NumberField';
import { OtherProblems } from './OtherProblems';
import { Section } from './Section';
import { TextField } from './TextField';

/** Crew-level fields; agents and tasks have their own forms (select a node). */
const FIELDS = ['id', 'name', 'description', 'process', 'manager', 'inputs', 'memory', 'maxRpm', 'budget', 'planning', 'knowledge', 'knowledgeSettings'];

export function CrewForm({ doc, profiles }: { doc: CrewDraft; profiles: readonly string[] }) {
  const perform = useDocumentStore.getState().perform;
  const set = (field: string, value: unknown, coalesce = true) => perform(updateCrew({ [field]: value }, { coalesceKey: coalesce ? `crew:${field}` : undefined }));
  /** Typing into one part of a field (`0.text`, `scope`) is one undo step; other changes (add, remove, toggle) are their own. */
  const setPart = (field: string, value: unknown, editKey: string | undefined) =>
    perform(updateCrew({ [field]: value }, { coalesceKey: editKey === undefined ? undefined : `crew:${field}:${editKey}` }));
  const d = doc as Record<string, unknown>;
  const memory = isRecord(d.memory) ? d.memory : undefined;
  const planning = isRecord(d.planning) ? d.planning : undefined;
  const budget = isRecord(d.budget) ? d.budget : undefined;
  /** A budget with no cap left is no budget. */
  const setBudget = (patch: Record<string, unknown>) => {
    const next = patchOf(budget, patch);
    set('budget', Object.keys(next).length > 0 ? next : undefined);
  };
  const planningOn = planning !== undefined && planning.enabled !== false;
  const patchOf = (current: Record<string, unknown> | undefined, patch: Record<string, unknown>) => {
    const next: Record<string, unknown> = { ...current };
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) delete next[k];
      else next[k] = v;
    }
    return next;
  };

  return (
    <>
      <InspectorHeader kind="crew" kindLabel="Crew" title={typeof d.name === 'string' && d.name ? d.name : 'Untitled crew'} />
      <OtherProblems prefix="" fields={[...FIELDS, 'agents', 'tasks', 'layout']} />
      <Section title="Crew">
        <TextField label="Name" path="name" value={d.name} onChange={(v) => set('name', v ?? '')} testId="field-crew-name" />
        <IdField
          path="id"
          value={d.id}
          hint="Runs are filed under this id."
          testId="field-crew-id"
          onCommit={(next) => {
            if (!/^[A-Za-z0-9_-]+$/.test(next)) return 'Ids may only contain letters, digits, _ and -.';
            perform(updateCrew({ id: next }));
            return undefined;
          }}
        />
        <TextField label="Description" path="description" value={d.description} multiline rows={2} optional onChange={(v) => set('description', v)} testId="field-crew-description" />
      </Section>
      <Section title="Process">
        <ManagerEditor doc={doc} profiles={profiles} />
      </Section>
      <Section title="Inputs">
        <InputsEditor path="inputs" value={d.inputs} onChange={(v) => set('inputs', v)} />
      </Section>
      <Section title="Memory">
        <CrewMemoryFields crewId={d.id} memory={memory} profiles={profiles} onChange={(next, editKey) => setPart('memory', next, editKey)} />
      </Section>
      <Section title="Limits and planning">
        <NumberField label="Max requests / min (crew)" path="maxRpm" value={d.maxRpm} min={1} placeholder="no limit" onChange={(v) => set('maxRpm', v)} />
        <NumberField label="Budget: max tokens" path="budget.maxTokens" value={budget?.maxTokens} min={1} placeholder="no cap" hint="The run pauses before a model call once it used this many tokens" testId="field-crew-budget-tokens" onChange={(v) => setBudget({ maxTokens: v })} />
        <NumberField label="Budget: max cost (US$)" path="budget.maxCostUsd" value={budget?.maxCostUsd} min={0} step={0.01} placeholder="no cap" hint="From the price table; models with no price count as $0" testId="field-crew-budget-cost" onChange={(v) => setBudget({ maxCostUsd: v })} />
        <CheckField
          label="Plan before kickoff"
          path="planning.enabled"
          value={planningOn}
          defaultValue={false}
          hint="A planner writes a step plan for every task"
          onChange={(v) => set('planning', v ? patchOf(planning, { enabled: true }) : undefined, false)}
        />
        {planningOn && <ModelRefEditor label="Planner model" path="planning.llm" value={planning?.llm} profiles={profiles} onChange={(v) => set('planning', patchOf(planning, { llm: v }))} />}
      </Section>
      <Section title="Knowledge" defaultOpen={d.knowledge !== undefined || d.knowledgeSettings !== undefined}>
        <KnowledgeSourcesEditor path="knowledge" value={d.knowledge} readers="every agent of the crew" onChange={(v, editKey) => setPart('knowledge', v, editKey)} />
        <KnowledgeSettingsFields path="knowledgeSettings" value={d.knowledgeSettings} onChange={(v, editKey) => setPart('knowledgeSettings', v, editKey)} />
      </Section>
    </>
  );
}
