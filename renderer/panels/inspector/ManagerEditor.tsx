import { setProcess } from '../../commands/setProcess';
import { updateCrew } from '../../commands/updateCrew';
import { agentsOf, entry, managerOf, stringField, type CrewDraft } from '../../commands/crewDraft';
import { useDocumentStore } from '../../stores/documentStore';
import { controlId, FieldProblems } from './Field';
import { ModelRefEditor } from './ModelRefEditor';
import { useProblemsAt } from './problemsContext';
import { SelectField } from './SelectField';

/**
 * The process, and for hierarchical crews the manager: the built-in one (with its model) or one of the
 * agents; and whom it may delegate to.
 */
export function ManagerEditor({ doc, profiles }: { doc: CrewDraft; profiles: readonly string[] }) {
  const perform = useDocumentStore.getState().perform;
  const manager = managerOf(doc);
  const hierarchical = doc.process === 'hierarchical';
  const agentId = stringField(manager?.agentId);
  const kind = agentId !== undefined ? 'agent' : 'builtin';
  const setManager = (next: Record<string, unknown> | undefined, coalesce?: string) => perform(updateCrew({ manager: next }, { coalesceKey: coalesce }));
  const agents = agentsOf(doc)
    .map((a) => entry(a))
    .filter((a) => typeof a.id === 'string');
  const ownProblems = useProblemsAt('manager', true);
  const base = controlId('manager');
  const delegateTo = manager?.delegateTo === 'all' ? 'all' : 'assigned';
  const withDelegate = (m: Record<string, unknown>) => (delegateTo === 'all' ? { ...m, delegateTo: 'all' } : m);

  return (
    <div className="insp-group">
      <SelectField
        label="Process"
        path="process"
        value={typeof doc.process === 'string' ? doc.process : 'sequential'}
        options={[
          { value: 'sequential', label: 'Sequential — tasks run in order' },
          { value: 'hierarchical', label: 'Hierarchical — a manager delegates' },
        ]}
        onChange={(v) => perform(setProcess(v as 'sequential' | 'hierarchical'))}
        testId="field-process"
      />
      {hierarchical && (
        <fieldset className="insp-fieldset">
          <legend className="insp-label">Manager</legend>
          <div className="insp-radio">
            <input id={`${base}-builtin`} type="radio" name={base} checked={kind === 'builtin'} onChange={() => setManager(withDelegate({}))} data-testid="manager-builtin" />
            <label htmlFor={`${base}-builtin`}>Built-in manager</label>
          </div>
          <div className="insp-radio">
            <input
              id={`${base}-agent`}
              type="radio"
              name={base}
              checked={kind === 'agent'}
              disabled={agents.length === 0}
              onChange={() => setManager(withDelegate({ agentId: agents[0]?.id as string }))}
              data-testid="manager-agent"
            />
            <label htmlFor={`${base}-agent`}>One of the agents</label>
          </div>
          <FieldProblems messages={ownProblems} />
          {kind === 'agent' && (
            <SelectField
              label="Manager agent"
              path="manager.agentId"
              value={agentId ?? ''}
              options={agents.map((a) => ({ value: a.id as string, label: `${stringField(a.role) || a.id} (${a.id})` }))}
              hint="It leads the crew and is not assigned tasks itself."
              onChange={(v) => setManager(withDelegate({ agentId: v }))}
            />
          )}
          {kind === 'builtin' && (
            <ModelRefEditor label="Manager model" path="manager.llm" value={manager?.llm} profiles={profiles} onChange={(v) => setManager(withDelegate(v === undefined ? {} : { llm: v }), 'manager.llm')} />
          )}
          <SelectField
            label="Delegates to"
            path="manager.delegateTo"
            value={delegateTo}
            options={[
              { value: 'assigned', label: "The task's assigned agent (default)" },
              { value: 'all', label: 'Any agent of the crew' },
            ]}
            onChange={(v) => {
              const next: Record<string, unknown> = { ...manager };
              if (v === 'all') next.delegateTo = 'all';
              else delete next.delegateTo;
              setManager(next);
            }}
          />
        </fieldset>
      )}
    </div>
  );
}
