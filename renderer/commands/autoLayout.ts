import type { Size } from '../model/nodeSizes';
import type { CrewDraft, Position } from './crewDraft';
import { crewLayoutGraph } from './layout/crewLayoutGraph';
import { dagreLayout } from './layout/dagreLayout';

/**
 * Positions (top-left) for every node of the crew, with the default engine: tasks in one column in
 * execution order, the agents in a column beside them in the order that crosses the fewest
 * assignment edges (the declared order wherever it costs no crossing), the manager above the agents.
 * Dagre is the default: on the 300-node crew it matches ELK's crossings and order in a fraction of
 * the time and a narrower box (docs/LAYOUT.md, `npm run bench:layout`); ELK is on the Auto-layout menu.
 */
export function computeAutoLayout(doc: CrewDraft, measured: Readonly<Record<string, Size>> = {}): Record<string, Position> {
  return dagreLayout(crewLayoutGraph(doc, measured));
}
