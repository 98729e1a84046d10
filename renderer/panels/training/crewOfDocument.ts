/** The open document as the training and test panels need it: a crew's id, name and agent roles. */
export interface CrewSummary {
  id: string;
  name: string;
  roles: string[];
}

/** Undefined for a flow, or a document without an id yet. */
export function crewOfDocument(doc: unknown): CrewSummary | undefined {
  const d = (doc ?? {}) as { kind?: unknown; id?: unknown; name?: unknown; agents?: unknown };
  if (d.kind === 'flow' || typeof d.id !== 'string' || d.id === '') return undefined;
  const agents = Array.isArray(d.agents) ? (d.agents as { role?: unknown }[]) : [];
  const roles = [...new Set(agents.map((a) => (typeof a?.role === 'string' ? a.role.trim() : '')).filter((r) => r !== ''))];
  return { id: d.id, name: typeof d.name === 'string' && d.name ? d.name : d.id, roles };
}
