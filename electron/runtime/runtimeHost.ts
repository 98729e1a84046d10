// The runtime's process: Electron's main forks this file with utilityProcess (plain Node with
// `process.parentPort`). It serves the host contract for one workspace; main relays the window's requests.
import { createHostService } from '../../runtime/host/createHostService';
import { mainProcessConfirmer } from '../../runtime/host/hostService';
import { serveRuntime, type ParentPortLike } from './runtimeServer';
import { WORKSPACE_ARG } from './runtimeMessages';

const at = process.argv.indexOf(WORKSPACE_ARG);
const workspace = at >= 0 ? process.argv[at + 1] : undefined;
const port = process.parentPort as ParentPortLike | undefined;

if (!port) {
  process.stderr.write('runtimeHost: no parent port; this file is started by the Crewdeck app (utilityProcess)\n');
  process.exit(2);
} else {
  serveRuntime({
    port,
    workspace: workspace ?? '',
    env: process.env,
    createService(dir) {
      if (!dir) throw new Error(`missing ${WORKSPACE_ARG} <folder>`);
      // Main answers the window's trust.grant itself after a native dialog and sends what it showed.
      return createHostService({ workspace: dir, transport: 'electron', env: process.env, confirmTrust: mainProcessConfirmer });
    },
    exit: (code) => process.exit(code),
  });
}
