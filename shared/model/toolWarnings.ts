import type { Problem } from './problems';
import { toolKeyVariable } from './toolConfig';

type Loose = Record<string, unknown>;

/**
 * Tool references whose key is not set (web search without its provider's key variable), anywhere in a
 * crew or flow document: a warning each, naming the variable. `isSet` says whether a variable has a
 * value (the environment for the CLI and browser mode, the keychain too in the app). The document stays
 * valid: a run that uses the tool without a key fails only that call.
 */
export function toolKeyWarnings(document: unknown, isSet: (variable: string) => boolean): Problem[] {
  const warnings: Problem[] = [];
  const visit = (value: unknown, path: string[]): void => {
    if (Array.isArray(value)) value.forEach((v, i) => visit(v, [...path, String(i)]));
    else if (value !== null && typeof value === 'object') {
      const record = value as Loose;
      const variable = typeof record.tool === 'string' ? toolKeyVariable(record.tool, record.config) : undefined;
      if (variable && !isSet(variable)) {
        warnings.push({ path: [...path, 'tool'].join('.'), message: `${record.tool} needs the key ${variable}, which is not set; set it (or store it in the app's API keys) before a run uses this tool` });
      }
      for (const [k, v] of Object.entries(record)) visit(v, [...path, k]);
    }
  };
  visit(document, []);
  return warnings;
}

/**
 * Tool references on one agent (or task) that the model would see under the same name: the second is
 * offered as `<name>_2`. CrewAI allows it too (two FileReadTools with different files); a `name` on
 * each makes them clear to the model.
 */
export function duplicateToolNameWarnings(refs: unknown, path: string): Problem[] {
  if (!Array.isArray(refs)) return [];
  const seen = new Map<string, number>();
  const warnings: Problem[] = [];
  refs.forEach((ref, i) => {
    if (ref === null || typeof ref !== 'object') return;
    const r = ref as Loose;
    const name = typeof r.name === 'string' ? r.name : typeof r.tool === 'string' ? r.tool : undefined;
    if (name === undefined) return;
    const first = seen.get(name);
    if (first === undefined) seen.set(name, i);
    else warnings.push({ path: `${path}.${i}`, message: `two tools named "${name}" (also ${path}.${first}): the model sees this one as "${name}_2"; give it a "name" of its own` });
  });
  return warnings;
}
