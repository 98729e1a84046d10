import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { walk } from './findProject';
import { blankComments } from './pythonSource';

/**
 * A Python file that builds a crew directly (`Crew(...)` and `Agent(...)` calls outside any @CrewBase
 * class), the way CrewAI's plain-script examples do; `undefined` when the project has none.
 */
export function plainScriptCrew(root: string): { file: string; line: number } | undefined {
  for (const file of walk(root).filter((f) => f.endsWith('.py'))) {
    let src: string;
    try {
      src = blankComments(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    if (/@CrewBase\b/.test(src)) continue;
    const agent = /(?<![\w.])Agent\s*\(/.exec(src);
    if (!agent || !/(?<![\w.])Crew\s*\(/.test(src)) continue;
    return { file: relative(root, file).split(sep).join('/'), line: src.slice(0, agent.index).split('\n').length };
  }
  return undefined;
}
