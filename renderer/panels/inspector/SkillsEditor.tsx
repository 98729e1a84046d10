import '../../styles/inspector-knowledge.css';
import { isRecord } from '../../commands/crewDraft';
import { FieldProblems } from './Field';
import { patchRecord } from './patchRecord';
import { useProblemsAt } from './problemsContext';
import { TextField } from './TextField';

type Skill = string | Record<string, unknown>;

type Props = {
  path: string;
  value: unknown;
  /** `editKey` names the field being typed into (`0.instructions`: one undo step per field); absent for add and remove. */
  onChange(value: Skill[] | undefined, editKey?: string): void;
};

/**
 * An agent's skills (SPEC §5): named instruction blocks, either a workspace `.md` file or written
 * inline. The agent sees their names and descriptions and loads one with the `load_skill` tool.
 */
export function SkillsEditor({ path, value, onChange }: Props) {
  const list: Skill[] = Array.isArray(value) ? (value as unknown[]).map((s) => (typeof s === 'string' ? s : isRecord(s) ? s : {})) : [];
  const own = useProblemsAt(path, true);
  const replace = (index: number, next: Skill, editKey: string) =>
    onChange(
      list.map((s, i) => (i === index ? next : s)),
      editKey,
    );
  const remove = (index: number) => {
    const next = list.filter((_, i) => i !== index);
    onChange(next.length > 0 ? next : undefined);
  };
  const addInline = () => {
    const names = new Set(list.map((s) => (typeof s === 'string' ? undefined : s.name)));
    let n = list.length + 1;
    while (names.has(`skill-${n}`)) n += 1;
    onChange([...list, { name: `skill-${n}`, description: '', instructions: '' }]);
  };

  return (
    <div className="insp-list" data-testid="skills-editor">
      <FieldProblems messages={own} />
      {list.length === 0 && <div className="insp-empty">No skills. The agent loads a skill’s instructions by name when it needs them.</div>}
      {list.map((skill, i) => (
        <div key={i} className="insp-card insp-skill" data-testid="skill" data-type={typeof skill === 'string' ? 'file' : 'inline'}>
          <div className="insp-card-head">
            <span className="insp-card-index">{i + 1}</span>
            <span className="insp-kind-badge" data-type={typeof skill === 'string' ? 'file' : 'inline'}>
              {typeof skill === 'string' ? 'File' : 'Inline'}
            </span>
            <span className="insp-card-title">{skillTitle(skill)}</span>
            <button type="button" className="insp-icon-btn is-danger" aria-label={`Remove skill ${i + 1}`} onClick={() => remove(i)} data-testid="remove-skill">
              ×
            </button>
          </div>
          {typeof skill === 'string' ? (
            <TextField
              label="Skill file"
              path={`${path}.${i}`}
              value={skill}
              mono
              placeholder="skills/code-review.md"
              hint="A .md file in the workspace; its front matter may give the name and description."
              onChange={(v) => replace(i, v ?? '', `${i}`)}
              testId="skill-path"
            />
          ) : (
            <InlineSkillFields path={`${path}.${i}`} skill={skill} onPatch={(field, v) => replace(i, patchRecord(skill, { [field]: v }), `${i}.${field}`)} />
          )}
        </div>
      ))}
      <div className="insp-add-row" role="group" aria-label="Add skill">
        <button type="button" className="btn insp-add" onClick={() => onChange([...list, ''])} data-testid="add-skill-file">
          + Skill file
        </button>
        <button type="button" className="btn insp-add" onClick={addInline} data-testid="add-skill-inline">
          + Inline skill
        </button>
      </div>
    </div>
  );
}

function skillTitle(skill: Skill): string {
  if (typeof skill === 'string') return skill.trim() === '' ? 'No file chosen' : (skill.split('/').pop() ?? skill);
  return typeof skill.name === 'string' && skill.name.trim() !== '' ? skill.name : 'Unnamed skill';
}

function InlineSkillFields({ path, skill, onPatch }: { path: string; skill: Record<string, unknown>; onPatch(field: string, value: unknown): void }) {
  const own = useProblemsAt(path, true);
  return (
    <>
      <FieldProblems messages={own} />
      <TextField label="Name" path={`${path}.name`} value={skill.name} mono onChange={(v) => onPatch('name', v ?? '')} testId="skill-name" />
      <TextField
        label="Description"
        path={`${path}.description`}
        value={skill.description}
        optional
        placeholder="When to use it, in one line"
        onChange={(v) => onPatch('description', v)}
        testId="skill-description"
      />
      <TextField label="Instructions" path={`${path}.instructions`} value={skill.instructions} multiline rows={4} onChange={(v) => onPatch('instructions', v ?? '')} testId="skill-instructions" />
    </>
  );
}
