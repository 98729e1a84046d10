import { useEffect, useState } from 'react';
import { host } from '../../host/hostContext';
import type { ChatTarget } from '../../stores/chatStore';

type Loose = Record<string, unknown>;
const records = (v: unknown): Loose[] => (Array.isArray(v) ? v.filter((x): x is Loose => x !== null && typeof x === 'object') : []);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** A crew's agents as chat targets (agents without an id yet cannot be talked to). */
export function crewAgents(doc: unknown, path: string): ChatTarget[] {
  return records((doc as Loose | undefined)?.agents).flatMap((a) => {
    const id = text(a.id);
    return id ? [{ path, agentId: id, role: text(a.role) ?? id }] : [];
  });
}

/**
 * What a flow offers to chat with: its agent methods (the agent inline, id = the method's id), and the
 * crew files its methods run (their agents are read from those files).
 */
export function flowChatSources(doc: unknown, path: string): { agents: ChatTarget[]; crewFiles: string[] } {
  const agents: ChatTarget[] = [];
  const crewFiles = new Set<string>();
  for (const method of records((doc as Loose | undefined)?.methods)) {
    const body = (method.body ?? {}) as Loose;
    const inner = body.type === 'for_each' ? ((body.body ?? {}) as Loose) : body;
    const id = text(method.id);
    if (inner.type === 'agent' && id) {
      const agent = (inner.agent ?? {}) as Loose;
      agents.push({ path, agentId: id, role: text(agent.role) ?? id });
    }
    if (inner.type === 'crew' && text(inner.file)) crewFiles.add(inner.file as string);
    if (body.type === 'script') for (const file of Array.isArray(body.crews) ? body.crews : []) if (text(file)) crewFiles.add(file as string);
  }
  return { agents, crewFiles: [...crewFiles] };
}

/** Everyone the open document lets you chat with: a crew's agents, or a flow's agents and its crews' agents. */
export function useChatTargets(doc: unknown, path: string | undefined): ChatTarget[] {
  const isFlow = (doc as Loose | undefined)?.kind === 'flow';
  const [crewAgentsOfFlow, setCrewAgentsOfFlow] = useState<ChatTarget[]>([]);
  const flow = isFlow && path ? flowChatSources(doc, path) : undefined;
  const filesKey = flow?.crewFiles.join('\n') ?? '';

  useEffect(() => {
    let live = true;
    const files = filesKey === '' ? [] : filesKey.split('\n');
    void Promise.all(
      files.map((file) =>
        host()
          .invoke('documents.read', { path: file })
          .then((read) => crewAgents(read.document, file))
          .catch(() => [] as ChatTarget[]),
      ),
    ).then((lists) => {
      if (live) setCrewAgentsOfFlow(lists.flat());
    });
    return () => {
      live = false;
    };
  }, [filesKey]);

  if (!path) return [];
  return flow ? [...flow.agents, ...crewAgentsOfFlow] : crewAgents(doc, path);
}
