export interface CrewInput {
  name: string;
  description?: string;
  default?: string;
  /** Used as `{name}` in the crew but not declared in its `inputs`. */
  undeclared?: boolean;
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;

/**
 * The inputs a run of this crew document asks for: the declared ones (with defaults and
 * descriptions), then any `{placeholder}` used in agents or tasks that is not declared.
 */
export function crewInputs(document: unknown): CrewInput[] {
  const doc = (document ?? {}) as { inputs?: unknown; agents?: unknown; tasks?: unknown };
  const inputs: CrewInput[] = [];
  const seen = new Set<string>();
  if (Array.isArray(doc.inputs)) {
    for (const raw of doc.inputs as { name?: unknown; description?: unknown; default?: unknown }[]) {
      if (typeof raw?.name !== 'string' || seen.has(raw.name)) continue;
      seen.add(raw.name);
      inputs.push({
        name: raw.name,
        description: typeof raw.description === 'string' ? raw.description : undefined,
        default: typeof raw.default === 'string' ? raw.default : undefined,
      });
    }
  }
  const texts: unknown[] = [];
  for (const a of Array.isArray(doc.agents) ? (doc.agents as Record<string, unknown>[]) : []) texts.push(a?.role, a?.goal, a?.backstory);
  for (const t of Array.isArray(doc.tasks) ? (doc.tasks as Record<string, unknown>[]) : []) texts.push(t?.description, t?.expectedOutput, t?.outputFile);
  for (const text of texts) {
    if (typeof text !== 'string') continue;
    for (const [, name] of text.matchAll(PLACEHOLDER)) {
      if (name === undefined || seen.has(name)) continue;
      seen.add(name);
      inputs.push({ name, undeclared: true });
    }
  }
  return inputs;
}
