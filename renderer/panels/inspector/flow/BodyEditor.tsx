import { FLOW_BODY_KINDS, type FlowBodyKind } from '../../../../shared/model/flow';
import { BODY_KIND_LABEL } from '../../../commands/flow/defaultBody';
import { setBodyKind } from '../../../commands/flow/setBodyKind';
import { useDocumentStore } from '../../../stores/documentStore';
import { SelectField } from '../SelectField';
import { AgentBodyEditor } from './AgentBodyEditor';
import type { BodyEditorProps } from './bodyEditorProps';
import { CrewBodyEditor } from './CrewBodyEditor';
import { FeedbackBodyEditor } from './FeedbackBodyEditor';
import { ForEachBodyEditor } from './ForEachBodyEditor';
import { LlmBodyEditor } from './LlmBodyEditor';
import { RulesBodyEditor } from './RulesBodyEditor';
import { ScriptBodyEditor } from './ScriptBodyEditor';
import { SetStateBodyEditor } from './SetStateBodyEditor';

const EDITORS = {
  crew: CrewBodyEditor,
  agent: AgentBodyEditor,
  llm: LlmBodyEditor,
  for_each: ForEachBodyEditor,
  human_feedback: FeedbackBodyEditor,
  script: ScriptBodyEditor,
  set_state: SetStateBodyEditor,
  rules: RulesBodyEditor,
} satisfies Record<FlowBodyKind, (props: BodyEditorProps) => React.JSX.Element>;

/** The body kind selector (switching keeps the method's name and trigger) and that kind's editor. */
export function BodyEditor(props: BodyEditorProps) {
  const kind = typeof props.body.type === 'string' ? props.body.type : '';
  const Editor = (EDITORS as Record<string, (p: BodyEditorProps) => React.JSX.Element>)[kind];
  return (
    <>
      <SelectField
        label="Kind"
        path={`${props.path}.type`}
        value={kind}
        options={FLOW_BODY_KINDS.map((k) => ({ value: k, label: BODY_KIND_LABEL[k] }))}
        onChange={(v) => useDocumentStore.getState().perform(setBodyKind(props.nodeId, v as FlowBodyKind))}
        hint="Switching gives the method a fresh body of that kind; name and trigger stay (undo brings the old body back)."
        testId="field-body-kind"
      />
      {Editor ? <Editor {...props} /> : <p className="insp-hint">Choose a kind to edit the body.</p>}
    </>
  );
}
