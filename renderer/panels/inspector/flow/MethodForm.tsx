import { BODY_KIND_LABEL, ROUTING_KINDS } from '../../../commands/flow/defaultBody';
import { deleteFlowNodes } from '../../../commands/flow/deleteFlowNodes';
import { bodyOf, routesOf, str, triggerOf, type MethodDraft } from '../../../commands/flow/flowDraft';
import { renameMethod, renameMethodId } from '../../../commands/flow/renameMethod';
import { updateBody, updateMethod } from '../../../commands/flow/updateMethod';
import { openChat } from '../../chat/openChat';
import { useDocumentStore } from '../../../stores/documentStore';
import { IdField } from '../IdField';
import { OtherProblems } from '../OtherProblems';
import { Section } from '../Section';
import { TextField } from '../TextField';
import { BodyEditor } from './BodyEditor';
import { FlowHeader } from './FlowHeader';
import { RoutesEditor } from './RoutesEditor';
import { TriggerEditor } from './TriggerEditor';

const FIELDS = ['id', 'name', 'description', 'trigger', 'routes', 'body'];

type Props = { nodeId: string; index: number; method: MethodDraft; otherNames: string[]; otherRoutes: string[]; profiles: readonly string[] };

/** One method: identity, trigger, routes (routers) and the body editor of its kind. */
export function MethodForm({ nodeId, index, method, otherNames, otherRoutes, profiles }: Props) {
  const path = `methods.${index}`;
  const perform = useDocumentStore.getState().perform;
  const body = bodyOf(method);
  const kind = str(body.type) ?? '';
  const routes = routesOf(method);
  const name = str(method.name) || `Method ${index + 1}`;
  const agentRole = agentRoleOf(body, name);
  const setBody = (field: string, value: unknown, editKey?: string) =>
    perform(updateBody(nodeId, { [field]: value }, { coalesceKey: `${nodeId}:body:${field}${editKey !== undefined ? `:${editKey}` : ''}` }));
  return (
    <>
      <FlowHeader kind="method" icon={routes.length > 0 ? 'router' : kind} kindLabel={`${routes.length > 0 ? 'Router' : 'Method'} · ${(BODY_KIND_LABEL as Record<string, string>)[kind] ?? kind}`} title={name}>
        {agentRole !== undefined && typeof method.id === 'string' && method.id !== '' && (
          <button type="button" className="btn ghost" data-testid="inspector-chat" title={`Talk to ${agentRole} alone, with its tools and model`} onClick={() => openChat(method.id as string, agentRole)}>
            Chat
          </button>
        )}
        <button type="button" className="btn ghost is-danger" onClick={() => perform(deleteFlowNodes([nodeId]))} data-testid="inspector-delete">
          Delete
        </button>
      </FlowHeader>
      <OtherProblems prefix={path} fields={FIELDS} />
      <Section title="Method">
        <IdField
          label="Name"
          path={`${path}.name`}
          value={method.name}
          testId="field-method-name"
          hint="Listeners refer to the method by name; renaming updates them."
          onCommit={(next) => {
            const r = perform(renameMethod(nodeId, next));
            return r.ok ? undefined : r.reason;
          }}
        />
        <IdField
          path={`${path}.id`}
          value={method.id}
          testId="field-method-id"
          hint="Runs and the trace refer to the method by id."
          onCommit={(next) => {
            const r = perform(renameMethodId(nodeId, next));
            return r.ok ? undefined : r.reason;
          }}
        />
        <TextField
          label="Description"
          path={`${path}.description`}
          value={method.description}
          optional
          onChange={(v) => perform(updateMethod(nodeId, { description: v }, { coalesceKey: `${nodeId}:description` }))}
          testId="field-method-description"
        />
      </Section>
      <Section title="Trigger">
        <TriggerEditor nodeId={nodeId} path={`${path}.trigger`} trigger={triggerOf(method)} otherNames={otherNames} otherRoutes={otherRoutes} />
      </Section>
      {(routes.length > 0 || ROUTING_KINDS.has(kind)) && (
        <Section title="Routes">
          <RoutesEditor nodeId={nodeId} path={`${path}.routes`} routes={routes} />
        </Section>
      )}
      <Section title="Body">
        <BodyEditor nodeId={nodeId} path={`${path}.body`} body={body} routes={routes} profiles={profiles} set={setBody} />
      </Section>
    </>
  );
}

/** The role of the agent an agent method (or a for_each over one) runs, for its Chat button. */
function agentRoleOf(body: Record<string, unknown>, fallback: string): string | undefined {
  const inner = body.type === 'for_each' && body.body !== null && typeof body.body === 'object' ? (body.body as Record<string, unknown>) : body;
  if (inner.type !== 'agent') return undefined;
  const agent = inner.agent !== null && typeof inner.agent === 'object' ? (inner.agent as Record<string, unknown>) : {};
  return str(agent.role) || fallback;
}
