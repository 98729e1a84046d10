import type { WorkspaceSettings } from '../../shared/model/workspace';
import { loadWorkspaceSettings } from '../../runtime/document/loadDocument';
import { WorkspaceTrust } from '../../runtime/trust/workspaceTrust';

/**
 * Records the user's trust for the workspace's current held parts (MCP stdio servers, keys sent to a
 * baseUrl…), as `crewdeck trust --yes` would, in the tests' CREWDECK_CONFIG_DIR. Tests about something
 * else than trust call it for workspaces that need it; test/security/workspaceTrust.test.ts pins the rule.
 */
export function trustWorkspace(workspace: string, settings: WorkspaceSettings | undefined = loadWorkspaceSettings(workspace)): void {
  new WorkspaceTrust(workspace).grant(settings);
}
