import { workspaceDatabasePath } from '../store/database';
import { SqliteRunStore } from '../store/sqliteRunStore';
import { WorkspaceInvalid } from '../errors';

/**
 * The workspace's run store for a CLI command. `create: false` never creates `.crewdeck/` (reading
 * commands). A store that cannot be opened (not a database, a file in the way) is bad input, named.
 */
export function openStore(workspace: string, create: boolean): SqliteRunStore | undefined {
  try {
    return create ? SqliteRunStore.open(workspace) : SqliteRunStore.openExisting(workspace);
  } catch (error) {
    throw new WorkspaceInvalid(`cannot open the run store ${workspaceDatabasePath(workspace)}: ${(error as Error).message}`);
  }
}
