import type { CrewCommand } from './command';
import type { CrewDraft } from './crewDraft';
import { withPatch } from './crewDraft';

/**
 * Switches the crew's process. Going back to sequential drops the manager settings (only the
 * hierarchical process uses a manager; keeping them would be reported as a problem). Undo restores them.
 */
export function setProcess(process: 'sequential' | 'hierarchical'): CrewCommand {
  return {
    kind: 'crew',
    label: `Use ${process} process`,
    perform(doc: CrewDraft) {
      if ((doc.process ?? 'sequential') === process && (process === 'hierarchical' || doc.manager === undefined)) return doc;
      return withPatch(doc, { process, manager: process === 'sequential' ? undefined : doc.manager });
    },
  };
}
