import type { FlowStep } from './flowSteps/flowStep';
import type { PyFunction } from './pythonSource';

/**
 * A pass-through script standing for a method's Python; a router stub keeps its route labels (and
 * chooses none). The crews its Python kicks off are listed (`crews`), so an export writes them too.
 */
export function stub(fn: PyFunction, file: string, source: string, isRouter: boolean, crewFileOf: (className: string) => string | undefined): FlowStep {
  const python = source.split('\n').slice(fn.line - 1, fn.line - 1 + fn.body.split('\n').length).join('\n');
  const routes = isRouter ? stubRoutes(fn.body) : [];
  const crews = [...new Set([...fn.body.matchAll(/\b([A-Z]\w*)\s*\(\s*\)\s*\.\s*crew\s*\(/g)].map((m) => crewFileOf(m[1]!)).filter((f): f is string => f !== undefined))];
  // The Python is data (`stub.python`), never text inside the code: the code only passes its input on.
  return {
    body: { type: 'script', code: 'return input;', stub: { python, file, line: fn.line }, ...(crews.length > 0 ? { crews } : {}) },
    ...(routes.length > 0 ? { routes } : {}),
  };
}

/**
 * A router's route labels as far as they can be read: `return "label"`, and for `return route` the
 * string literals assigned to `route` (`route = "a"`, `route = "a" if … else "b"`).
 */
function stubRoutes(body: string): string[] {
  const routes: string[] = [];
  const literal = (text: string) => /^(["'])([A-Za-z0-9_-]+)\1$/.exec(text.trim())?.[2];
  for (const m of body.matchAll(/\breturn\s+([^\n#]+)/g)) {
    const returned = m[1]!.trim();
    const label = literal(returned);
    if (label !== undefined) routes.push(label);
    else if (/^\w+$/.test(returned)) {
      for (const a of body.matchAll(new RegExp(`^\\s*${returned}\\s*=(?!=)([^\\n#]+)`, 'gm'))) {
        // The values of a conditional expression sit before its first `if` and after each `else`.
        const values = a[1]!.split(/\belse\b/).map((part) => part.split(/\bif\b/)[0]!);
        for (const v of values) {
          const l = literal(v);
          if (l !== undefined) routes.push(l);
        }
      }
    }
  }
  return [...new Set(routes)];
}
