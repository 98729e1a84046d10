import { relative, resolve, sep } from 'node:path';
import type { CrewDocument } from '../../shared/model/crew';
import type { FlowDocument } from '../../shared/model/flow';
import { loadCrewFile } from '../document/loadDocument';
import { resolveWorkspaceDocument } from '../document/workspaceDocument';
import { documentReachParts } from '../trust/networkParts';
import { requireTrusted } from '../trust/workspaceTrust';
import type { RunReach } from './runStrategy';
import type { RuntimeSetup } from './runtimeSetup';

/**
 * What a document widens the network to (allowedHosts, knowledge URLs, models on hosts of their own)
 * is held until the user trusts it, asked before the run opens: one refusal names every such part.
 */
export function requireDocumentReach(setup: RuntimeSetup, doc: CrewDocument | FlowDocument, documentPath: string | undefined, reach: RunReach): void {
  const { workspace } = setup;
  const source = documentPath ? relative(workspace, resolve(workspace, documentPath)).split(sep).join('/') : `document "${doc.id ?? ''}"`;
  const parts = documentReachParts(doc, source, reach);
  // The crew files the flow's methods run (directly or once per for_each item); each is asked again
  // when its method loads it (FlowDeps.requireReach), since the file may change while the run goes on.
  for (const method of ('methods' in doc ? doc.methods : undefined) ?? []) {
    const body = method.body.type === 'for_each' ? method.body.body : method.body;
    if (body.type !== 'crew') continue;
    try {
      parts.push(...documentReachParts(loadCrewFile(resolveWorkspaceDocument(workspace, body.file).file), body.file, reach));
    } catch {
      // A crew file that cannot be read fails its method later, with its own message.
    }
  }
  requireTrusted(setup.trust, parts);
}
