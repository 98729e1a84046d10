import { createContext, useContext } from 'react';
import type { Problem } from '../../../shared/model/problems';

/** The open document's problems, for fields to find the ones about them. */
export const ProblemsContext = createContext<readonly Problem[]>([]);

/**
 * Messages for the field at `path` (`agents.1.role`): problems at that path, and — unless `exact` —
 * under it, prefixed with the rest of their path (`flags: …`).
 */
export function useProblemsAt(path: string | undefined, exact = false): string[] {
  const problems = useContext(ProblemsContext);
  if (path === undefined) return [];
  return problemsAt(problems, path, exact);
}

export function problemsAt(problems: readonly Problem[], path: string, exact = false): string[] {
  const out: string[] = [];
  for (const p of problems) {
    if (p.path === path) out.push(p.message);
    else if (!exact && p.path.startsWith(`${path}.`)) out.push(`${p.path.slice(path.length + 1)}: ${p.message}`);
  }
  return out;
}
