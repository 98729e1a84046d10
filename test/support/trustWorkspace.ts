import type { WorkspaceSettings } from '../../shared/model/workspace';
import { loadWorkspaceSettings } from '../../runtime/document/loadDocument';
import { documentHeldParts } from '../../runtime/trust/heldParts';
import { TrustStore } from '../../runtime/trust/trustStore';
import { workspaceHeldParts } from '../../runtime/trust/workspaceTrust';

/**
 * Records the user's trust for the workspace's current held parts (MCP stdio servers, keys sent to a
 * baseUrl…), as `crewdeck trust --yes` would, in the tests' CREWDECK_CONFIG_DIR; plus those of
 * `documents` a test runs in-process without writing them to the workspace. Tests about something else
 * than trust call it for workspaces that need it; test/security/workspaceTrust.test.ts pins the rule.
 */
export function trustWorkspace(
  workspace: string,
  settings: WorkspaceSettings | undefined = loadWorkspaceSettings(workspace),
  documents: readonly unknown[] = [],
): void {
  const parts = [...workspaceHeldParts(workspace, settings), ...documents.flatMap((d) => documentHeldParts(d, 'document'))];
  new TrustStore().record(workspace, parts);
}
