import type { CrewDocument } from '../../shared/model/crew';
import { MissingInput } from '../errors';

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;

/** Where `{name}` placeholders may appear in a crew. */
function textFields(doc: CrewDocument): { path: string; text: string }[] {
  const fields: { path: string; text: string }[] = [];
  doc.agents.forEach((a, i) => {
    fields.push({ path: `agents.${i}.role`, text: a.role }, { path: `agents.${i}.goal`, text: a.goal }, { path: `agents.${i}.backstory`, text: a.backstory });
  });
  doc.tasks.forEach((t, i) => {
    fields.push({ path: `tasks.${i}.description`, text: t.description }, { path: `tasks.${i}.expectedOutput`, text: t.expectedOutput });
    if (t.outputFile) fields.push({ path: `tasks.${i}.outputFile`, text: t.outputFile });
  });
  return fields;
}

/** Every placeholder name and the fields that use it. */
export function findPlaceholders(doc: CrewDocument): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const { path, text } of textFields(doc)) {
    for (const m of text.matchAll(PLACEHOLDER)) {
      const name = m[1]!;
      const list = found.get(name) ?? [];
      if (!list.includes(path)) list.push(path);
      found.set(name, list);
    }
  }
  return found;
}

/** Inputs given at kickoff, completed with the document's declared defaults. */
export function resolveInputs(doc: CrewDocument, given: Record<string, string>): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const declared of doc.inputs ?? []) {
    if (declared.default !== undefined) inputs[declared.name] = declared.default;
  }
  return { ...inputs, ...given };
}

/** A copy of the crew with every placeholder replaced; a missing input throws MissingInput naming it. */
export function interpolateCrew(doc: CrewDocument, inputs: Record<string, string>): CrewDocument {
  for (const [name, usedIn] of findPlaceholders(doc)) {
    if (!(name in inputs)) throw new MissingInput(name, usedIn);
  }
  const fill = (text: string) => text.replace(PLACEHOLDER, (whole, name: string) => (name in inputs ? String(inputs[name]) : whole));
  return {
    ...doc,
    agents: doc.agents.map((a) => ({ ...a, role: fill(a.role), goal: fill(a.goal), backstory: fill(a.backstory) })),
    tasks: doc.tasks.map((t) => ({
      ...t,
      description: fill(t.description),
      expectedOutput: fill(t.expectedOutput),
      outputFile: t.outputFile === undefined ? undefined : fill(t.outputFile),
    })),
  };
}
