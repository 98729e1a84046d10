import { isRecord } from '../../../commands/crewDraft';
import { ModelRefEditor } from '../ModelRefEditor';
import { TextField } from '../TextField';
import { ToolRefsEditor } from '../ToolRefsEditor';
import { TEMPLATE_HINT, type BodyEditorProps } from './bodyEditorProps';

/** One agent (role, goal, backstory, model, tools) works on a prompt. */
export function AgentBodyEditor({ path, body, profiles, set }: BodyEditorProps) {
  const agent = isRecord(body.agent) ? body.agent : {};
  const setAgent = (field: string, value: unknown) => {
    const next: Record<string, unknown> = { ...agent };
    if (value === undefined) delete next[field];
    else next[field] = value;
    set('agent', next, `agent.${field}`);
  };
  const a = `${path}.agent`;
  return (
    <>
      <TextField label="Prompt" path={`${path}.prompt`} value={body.prompt} multiline rows={4} hint={TEMPLATE_HINT} onChange={(v) => set('prompt', v ?? '')} testId="field-body-prompt" />
      <TextField label="Role" path={`${a}.role`} value={agent.role} onChange={(v) => setAgent('role', v ?? '')} testId="field-body-agent-role" />
      <TextField label="Goal" path={`${a}.goal`} value={agent.goal} multiline rows={2} onChange={(v) => setAgent('goal', v ?? '')} testId="field-body-agent-goal" />
      <TextField label="Backstory" path={`${a}.backstory`} value={agent.backstory} multiline rows={2} optional onChange={(v) => setAgent('backstory', v)} testId="field-body-agent-backstory" />
      <ModelRefEditor label="Model" path={`${a}.llm`} value={agent.llm} profiles={profiles} onChange={(v) => setAgent('llm', v)} />
      <div className="insp-label">Tools</div>
      <ToolRefsEditor path={`${a}.tools`} value={agent.tools} onChange={(v) => setAgent('tools', v)} />
    </>
  );
}
