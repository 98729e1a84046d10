import { NEW_AGENT_BACKSTORY, NEW_AGENT_GOAL } from '../../commands/addAgent';
import { deleteNodes } from '../../commands/deleteNodes';
import { renameEntity } from '../../commands/renameEntity';
import { updateEntity } from '../../commands/updateEntity';
import { isRecord, type AgentDraft } from '../../commands/crewDraft';
import { useDocumentStore } from '../../stores/documentStore';
import { openChat } from '../chat/openChat';
import { CheckField } from './CheckField';
import { IdField } from './IdField';
import { InspectorHeader } from './InspectorHeader';
import { KnowledgeSourcesEditor } from './KnowledgeSourcesEditor';
import { ModelRefEditor } from './ModelRefEditor';
import { NumberField } from './NumberField';
import { OtherProblems } from './OtherProblems';
import { Section } from './Section';
import { SkillsEditor } from './SkillsEditor';
import { TextField } from './TextField';
import { ToolRefsEditor } from './ToolRefsEditor';

const FIELDS = ['id', 'role', 'goal', 'backstory', 'llm', 'tools', 'allowDelegation', 'maxIter', 'maxRpm', 'maxExecutionTimeMs', 'memory', 'cache', 'respectContextWindow', 'skills', 'knowledge'];

type Props = { nodeId: string; index: number; agent: Partial<AgentDraft>; profiles: readonly string[]; isManager: boolean };

/** Every field of an agent (SPEC §2.1). */
export function AgentForm({ nodeId, index, agent, profiles, isManager }: Props) {
  const path = `agents.${index}`;
  const perform = useDocumentStore.getState().perform;
  const set = (field: string, value: unknown, coalesce = true) =>
    perform(updateEntity(nodeId, { [field]: value }, { coalesceKey: coalesce ? `${nodeId}:${field}` : undefined }));
  /** Typing into one part of a list (`0.text`) is one undo step; adding or removing an entry is its own. */
  const setPart = (field: string, value: unknown, editKey: string | undefined) =>
    perform(updateEntity(nodeId, { [field]: value }, { coalesceKey: editKey === undefined ? undefined : `${nodeId}:${field}:${editKey}` }));
  const crewMemoryOn = useDocumentStore((s) => isRecord(s.doc?.memory) && s.doc.memory.enabled !== false);
  const a = agent as Record<string, unknown>;
  const role = typeof a.role === 'string' && a.role ? a.role : `Agent ${index + 1}`;

  return (
    <>
      <InspectorHeader kind={isManager ? 'manager' : 'agent'} kindLabel={isManager ? 'Manager agent' : 'Agent'} title={role}>
        {!isManager && typeof a.id === 'string' && a.id !== '' && (
          <button type="button" className="btn ghost" data-testid="inspector-chat" title={`Talk to ${role} alone, with its tools, memory and model`} onClick={() => openChat(a.id as string, role)}>
            Chat
          </button>
        )}
        <button type="button" className="btn ghost is-danger" onClick={() => perform(deleteNodes([nodeId]))} data-testid="inspector-delete">
          Delete
        </button>
      </InspectorHeader>
      <OtherProblems prefix={path} fields={FIELDS} />
      <Section title="Identity">
        <IdField
          path={`${path}.id`}
          value={a.id}
          testId="field-id"
          hint="Tasks refer to the agent by id; renaming updates them."
          onCommit={(next) => {
            const r = perform(renameEntity(nodeId, next));
            return r.ok ? undefined : r.reason;
          }}
        />
        <TextField label="Role" path={`${path}.role`} value={a.role} onChange={(v) => set('role', v ?? '')} testId="field-role" hint="Identifies the agent as a coworker; must be unique." />
        <TextField label="Goal" path={`${path}.goal`} value={a.goal} multiline rows={2} placeholder={NEW_AGENT_GOAL} onChange={(v) => set('goal', v ?? '')} testId="field-goal" />
        <TextField label="Backstory" path={`${path}.backstory`} value={a.backstory} multiline rows={3} optional placeholder={NEW_AGENT_BACKSTORY} onChange={(v) => set('backstory', v)} testId="field-backstory" />
      </Section>
      <Section title="Model">
        <ModelRefEditor label="Model" path={`${path}.llm`} value={a.llm} profiles={profiles} onChange={(v) => set('llm', v)} />
      </Section>
      <Section title="Tools">
        <ToolRefsEditor path={`${path}.tools`} value={a.tools} onChange={(v) => set('tools', v.length > 0 ? v : [], false)} />
      </Section>
      <Section title="Behaviour">
        <CheckField label="Can delegate to coworkers" path={`${path}.allowDelegation`} value={a.allowDelegation} defaultValue={false} onChange={(v) => set('allowDelegation', v, false)} testId="field-allowDelegation" />
        <div className="insp-row">
          <NumberField label="Max iterations" path={`${path}.maxIter`} value={a.maxIter} min={1} placeholder="25" onChange={(v) => set('maxIter', v)} />
          <NumberField label="Max requests / min" path={`${path}.maxRpm`} value={a.maxRpm} min={1} placeholder="no limit" onChange={(v) => set('maxRpm', v)} />
        </div>
        <NumberField label="Time limit (ms)" path={`${path}.maxExecutionTimeMs`} value={a.maxExecutionTimeMs} min={1} placeholder="no limit" onChange={(v) => set('maxExecutionTimeMs', v)} />
        <CheckField
          label="Use crew memory"
          path={`${path}.memory`}
          value={a.memory}
          defaultValue={true}
          hint={
            !crewMemoryOn
              ? 'Crew memory is off (crew settings); this applies when it is on'
              : a.memory === false
                ? 'This agent neither recalls nor stores memories'
                : 'Recalls and stores memories in the crew’s scope'
          }
          onChange={(v) => set('memory', v, false)}
          testId="field-agent-memory"
        />
        <CheckField label="Cache tool results" path={`${path}.cache`} value={a.cache} defaultValue={true} onChange={(v) => set('cache', v, false)} />
        <CheckField label="Summarise when the context window is full" path={`${path}.respectContextWindow`} value={a.respectContextWindow} defaultValue={true} onChange={(v) => set('respectContextWindow', v, false)} />
      </Section>
      <Section title="Skills" defaultOpen={a.skills !== undefined}>
        <SkillsEditor path={`${path}.skills`} value={a.skills} onChange={(v, editKey) => setPart('skills', v, editKey)} />
      </Section>
      <Section title="Knowledge" defaultOpen={a.knowledge !== undefined}>
        <KnowledgeSourcesEditor path={`${path}.knowledge`} value={a.knowledge} readers="this agent" onChange={(v, editKey) => setPart('knowledge', v, editKey)} />
      </Section>
    </>
  );
}
