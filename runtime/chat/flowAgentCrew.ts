import type { CrewDocument } from '../../shared/model/crew';
import { CREW_DOCUMENT_VERSION } from '../../shared/model/crew';
import type { FlowDocument } from '../../shared/model/flow';
import { CHAT_TASK_ID } from './chatCrew';
import { ChatInvalid } from './chatErrors';

/**
 * The agent of a flow's agent method (or of a for_each over an agent) as a crew of one, for the chat:
 * its id is the method's id. A flow's crews are chatted with through their own crew files.
 */
export function flowAgentCrew(flow: FlowDocument, methodId: string): CrewDocument {
  const method = flow.methods.find((m) => m.id === methodId);
  const body = method?.body.type === 'for_each' ? method.body.body : method?.body;
  if (!method || body?.type !== 'agent') {
    const agents = flow.methods.filter((m) => m.body.type === 'agent' || (m.body.type === 'for_each' && m.body.body.type === 'agent')).map((m) => m.id);
    throw new ChatInvalid(`the flow "${flow.name}" has no agent method "${methodId}" (${agents.length > 0 ? `its agent methods: ${agents.join(', ')}` : 'it has no agent methods; chat with an agent of a crew it runs in that crew file'})`);
  }
  return {
    kind: 'crew',
    version: CREW_DOCUMENT_VERSION,
    id: flow.id,
    name: flow.name,
    process: 'sequential',
    agents: [{ ...body.agent, id: methodId }],
    tasks: [{ id: CHAT_TASK_ID, description: body.prompt, expectedOutput: '', agentId: methodId, async: false, humanInput: false, guardrails: [], guardrailMaxRetries: 0 }],
    ...(flow.budget ? { budget: flow.budget } : {}),
  };
}
