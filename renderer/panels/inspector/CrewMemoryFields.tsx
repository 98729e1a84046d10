import '../../styles/inspector-knowledge.css';
import { isRecord } from '../../commands/crewDraft';
import { controlId, FieldProblems } from './Field';
import { ModelRefEditor } from './ModelRefEditor';
import { patchRecord } from './patchRecord';
import { useProblemsAt } from './problemsContext';
import { SelectField } from './SelectField';
import { TextField } from './TextField';

type Props = {
  crewId: unknown;
  memory: unknown;
  profiles: readonly string[];
  /** The next `memory` object (`undefined` removes it); `editKey` names the part being typed into, for one undo step per part. */
  onChange(memory: Record<string, unknown> | undefined, editKey?: string): void;
};

const COMMIT_HINTS: Record<string, string> = {
  'after-guardrail': 'A task’s memories are kept only once its guardrails accept the output; rejected attempts leave nothing behind.',
  immediate: 'Memories are stored as soon as an attempt ends, even one a guardrail then rejects.',
};

/**
 * The crew's memory (SPEC §5): on or off, the scope its records live under, when a task's memories are
 * committed, and the model that extracts and consolidates them.
 */
export function CrewMemoryFields({ crewId, memory: raw, profiles, onChange }: Props) {
  const memory = isRecord(raw) ? raw : undefined;
  const on = memory !== undefined && memory.enabled !== false;
  const patch = (p: Record<string, unknown>, editKey?: string) => onChange(patchRecord(memory ?? {}, p), editKey);
  // While memory is off its settings are hidden, so every problem under `memory` shows here.
  const exact = [...useProblemsAt('memory', true), ...useProblemsAt('memory.enabled')];
  const all = useProblemsAt('memory');
  const own = on ? exact : all;
  const enabledId = controlId('memory.enabled');
  const commit = memory?.commit === 'immediate' ? 'immediate' : memory?.commit === undefined || memory.commit === 'after-guardrail' ? 'after-guardrail' : String(memory.commit);

  return (
    <>
      <div className="insp-check" data-invalid={own.length > 0 || undefined}>
        <input
          id={enabledId}
          type="checkbox"
          checked={on}
          // Turning memory off keeps its settings (enabled: false), so turning it back on restores them.
          onChange={(e) => (e.target.checked ? patch({ enabled: true }) : onChange(memory ? patchRecord(memory, { enabled: false }) : undefined))}
          data-testid="field-memory-enabled"
        />
        <label htmlFor={enabledId}>
          Crew memory
          <span className="insp-check-hint">Agents recall what earlier runs learned and store what this one learns</span>
        </label>
        <FieldProblems messages={own} />
      </div>
      {on && (
        <div className="insp-subgrid" data-testid="memory-settings">
          <TextField
            label="Scope"
            path="memory.scope"
            value={memory?.scope}
            optional
            mono
            placeholder={`/crew/${typeof crewId === 'string' && crewId ? crewId : '<crewId>'}`}
            hint="Records live under this scope; crews sharing a scope share memories."
            onChange={(v) => patch({ scope: v }, 'scope')}
            testId="field-memory-scope"
          />
          <SelectField
            label="Commit a task’s memories"
            path="memory.commit"
            value={commit}
            options={[
              { value: 'after-guardrail', label: 'After guardrails accept (default)' },
              { value: 'immediate', label: 'Immediately (CrewAI)' },
            ]}
            hint={COMMIT_HINTS[commit]}
            onChange={(v) => patch({ commit: v === 'after-guardrail' ? undefined : v })}
            testId="field-memory-commit"
          />
          <ModelRefEditor
            label="Memory model"
            path="memory.llm"
            value={memory?.llm}
            profiles={profiles}
            defaultLabel="The agent’s model (default)"
            hint="Extracts and consolidates memories after each task."
            onChange={(v) => patch({ llm: v }, 'llm')}
          />
        </div>
      )}
    </>
  );
}
