import { computeAutoLayout } from './autoLayout';
import type { Size } from '../model/nodeSizes';
import type { CrewCommand } from './command';
import type { CrewDraft } from './crewDraft';
import { sameValue } from './sameValue';

/** Auto-layout (dagre): rewrites `layout` for every node; `sizes` are the measured node sizes, when known. */
export function layoutAll(sizes: Readonly<Record<string, Size>> = {}): CrewCommand {
  return {
    kind: 'crew',
    label: 'Auto-layout',
    perform(doc: CrewDraft) {
      const layout = computeAutoLayout(doc, sizes);
      return sameValue(doc.layout, layout) ? doc : { ...doc, layout };
    },
  };
}
