import type { EventOf } from '../../../shared/events';
import type { FamilyFold } from './eventFold';
import type { RunDraft } from './runDraft';
import { nodeForAgentId, normaliseRole } from '../roleDirectory';

/** Agents at work (a node runs while one of its spans is open) and delegations between them. */

function agentStarted(d: RunDraft, e: EventOf<'agent.started'>): void {
  const node = nodeForAgentId(d.v.roles, e.agentId);
  const role = normaliseRole(e.role);
  if (!d.v.roles.byRole[role]) d.v.roles = { ...d.v.roles, byRole: { ...d.v.roles.byRole, [role]: node } };
  const span = d.open(e, 'agent', e.role, e.model);
  span.agentNode = node;
  span.taskId = e.taskId;
  if (e.delegatedBy) span.sublabel = `${e.model} · asked by ${e.delegatedBy}`;
  if (e.suggestions) span.sublabel = `${span.sublabel ?? e.model} · suggestions v${e.suggestions.version}`;
  const book = d.v.book;
  book.openAgents[node] = (book.openAgents[node] ?? 0) + 1;
  d.refreshAgent(node);
  const parent = span.parentId ? d.spans.get(span.parentId) : undefined;
  if (parent?.kind === 'delegation') d.delegationsTouched = true;
}

function agentEnded(d: RunDraft, e: EventOf<'agent.completed' | 'agent.failed' | 'agent.paused'>): void {
  const open = d.v.book.open[e.spanId];
  const how = e.type === 'agent.completed' ? 'done' : e.type === 'agent.paused' ? 'paused' : 'failed';
  const span = d.close(e, how);
  if (open && span?.agentNode) d.agentClosed(span.agentNode, how);
}

function delegationStarted(d: RunDraft, e: EventOf<'delegation.started'>): void {
  d.open(e, 'delegation', `${e.manager} → ${e.coworker}`, e.kind === 'ask' ? 'ask question' : 'delegate work');
  d.v.book.delegations.push(e.spanId);
  d.delegationsTouched = true;
}

function delegationEnded(d: RunDraft, e: EventOf<'delegation.completed' | 'delegation.failed'>): void {
  if (!d.spans.has(e.spanId)) {
    // An unknown coworker fails the delegation before it starts.
    d.open(e, 'delegation', `${e.manager} → ${e.type === 'delegation.failed' ? e.requestedCoworker : e.coworker}`, e.kind === 'ask' ? 'ask question' : 'delegate work');
  }
  d.close(e, e.type === 'delegation.completed' ? 'done' : 'failed');
  d.dropDelegation(e.spanId);
}

export const AGENT_FOLD = {
  'agent.started': agentStarted,
  'agent.completed': agentEnded,
  'agent.failed': agentEnded,
  'agent.paused': agentEnded,
} satisfies FamilyFold<'agent'>;

export const DELEGATION_FOLD = {
  'delegation.started': delegationStarted,
  'delegation.completed': delegationEnded,
  'delegation.failed': delegationEnded,
} satisfies FamilyFold<'delegation'>;
