// Crewdeck's Electron main process: one window over the renderer build, native menus, the API key
// store, and the runtime in a utility process. Built to dist/electron/main.cjs (scripts/buildElectron.mjs).
import { app, BrowserWindow, dialog, ipcMain, Menu, safeStorage, session, shell } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HostChannel, HostPush } from '../../shared/host-api';
import { IPC } from '../ipcChannels';
import { buildMenuTemplate } from './appMenu';
import { installContentSecurityPolicy } from './contentSecurityPolicy';
import { guardContents, isPermissionAllowed, openExternalSafely } from './navigationGuards';
import { handleInvoke } from './invokeHandler';
import { RuntimeConnection } from './runtimeConnection';
import { grantTrustWithDialog, trustDialogText } from './trustGrant';
import { forkRuntime } from './runtimeProcess';
import { handleSecretRequest, isSecretChannel } from './secretsChannel';
import { SecretStore, safeStorageEncryptor } from './secretStore';
import { chooseWorkspace, createWorkspace, defaultWorkspace, LastWorkspace, workspaceArgument } from './workspaceChoice';
import { WorkspaceWindow } from './workspaceWindow';

const PRODUCT_NAME = 'Crewdeck';
const paths = {
  preload: join(__dirname, 'preload.cjs'),
  runtimeHost: join(__dirname, 'runtimeHost.cjs'),
  indexHtml: join(__dirname, '..', 'renderer', 'index.html'),
};
const appUrl = pathToFileURL(paths.indexHtml).href;
const log = (line: string) => process.stderr.write(`${line}\n`);

// Before `ready`: the userData folder is named after the product in development and when packaged.
app.setName(PRODUCT_NAME);
app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  main().catch((error: unknown) => {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log(`crewdeck: could not start: ${message}`);
    dialog.showErrorBox(`${PRODUCT_NAME} could not start`, message);
    app.exit(1);
  });
}

async function main(): Promise<void> {
  await app.whenReady();
  const userData = app.getPath('userData');
  const secrets = new SecretStore(join(userData, 'secrets.json'), safeStorageEncryptor(safeStorage, process.platform));
  const lastWorkspace = new LastWorkspace(join(userData, 'workspace.json'));
  const baseEnv = { ...process.env };

  const openExternal = openExternalSafely((url) => shell.openExternal(url));
  guardSessions(openExternal);

  const runtime = new RuntimeConnection({
    spawn: forkRuntime(paths.runtimeHost),
    onPush: pushToWindows,
    onFatal: (message) => void windows.showWorkspaceError(message),
    log,
  });
  const windows = new WorkspaceWindow({ productName: PRODUCT_NAME, preload: paths.preload, indexHtml: paths.indexHtml, userData, secrets, lastWorkspace, runtime, openExternal, log });

  await windows.openWorkspace(startingWorkspace(lastWorkspace));
  handleInvoke(ipcMain, appUrl, (channel, request) => dispatchRequest(channel, request, { runtime, secrets, baseEnv, windows }));
  installAppMenu(windows);
  app.setAboutPanelOptions({ applicationName: PRODUCT_NAME, applicationVersion: app.getVersion(), copyright: 'MIT License' });

  windows.show();
  installAppLifecycle(windows, runtime);
}

/** The app's page only: its content security policy, its permissions, and every webContents kept on it. */
function guardSessions(openExternal: (url: string) => void): void {
  installContentSecurityPolicy(session.defaultSession);
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(isPermissionAllowed(permission, details.requestingUrl, appUrl)),
  );
  session.defaultSession.setPermissionCheckHandler((contents, permission) => isPermissionAllowed(permission, contents?.getURL() ?? '', appUrl));
  app.on('web-contents-created', (_event, contents) => guardContents(contents, () => appUrl, openExternal));
}

function pushToWindows(push: HostPush): void {
  for (const w of BrowserWindow.getAllWindows()) if (!w.isDestroyed()) w.webContents.send(IPC.push, push);
}

/** The workspace to open at launch (the argument, the last one, or the default, created when missing). */
function startingWorkspace(lastWorkspace: LastWorkspace): string {
  const choice = chooseWorkspace({
    argument: workspaceArgument(process.argv, process.cwd()),
    last: lastWorkspace.read(),
    fallback: defaultWorkspace(app.getPath('documents')),
  });
  if (choice.warning) log(`crewdeck: ${choice.warning}`);
  if (choice.create) createWorkspace(choice.workspace, join(app.getAppPath(), 'examples'));
  return choice.workspace;
}

interface RequestRoutes {
  runtime: RuntimeConnection;
  secrets: SecretStore;
  /** main's own environment at start. */
  baseEnv: NodeJS.ProcessEnv;
  windows: WorkspaceWindow;
}

/**
 * Where a checked request goes: `secrets.*` are answered in main (the keychain is main's), `trust.grant`
 * after a native dialog, everything else by the runtime.
 */
async function dispatchRequest(channel: HostChannel, request: unknown, { runtime, secrets, baseEnv, windows }: RequestRoutes): Promise<unknown> {
  if (isSecretChannel(channel)) {
    return handleSecretRequest(channel, request, {
      store: secrets,
      baseEnv,
      applyEnv: (values) => runtime.setEnv(values),
      referencedNames: async () => {
        const listed = await runtime.request('secrets.list', {});
        return listed.ok ? (listed.response as { names: Array<{ name: string; present: boolean }> }).names : [];
      },
    });
  }
  if (channel === 'trust.grant') {
    // The renderer cannot trust on its own: main asks the person in a native dialog (trustGrant.ts).
    return grantTrustWithDialog(
      (channel, request) => runtime.request(channel, request),
      async (status) => {
        const options = { type: 'warning' as const, buttons: ['Trust', 'Cancel'], defaultId: 1, cancelId: 1, noLink: true, ...trustDialogText(status) };
        const { response } = await windows.showMessageBox(options);
        return response === 0;
      },
    );
  }
  return runtime.request(channel, request);
}

function installAppMenu(windows: WorkspaceWindow): void {
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate({
        isMac: process.platform === 'darwin',
        appName: PRODUCT_NAME,
        send: (command) => windows.sendMenuCommand(command),
        openWorkspace: () => void windows.pickWorkspace(),
        openDocs: () => windows.openDocs(),
        showAbout: () => windows.showAbout(),
      }),
    ),
  );
}

function installAppLifecycle(windows: WorkspaceWindow, runtime: RuntimeConnection): void {
  app.on('second-instance', () => windows.focus());
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) windows.show();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped) return;
    // Let running crews cancel and the run store close before the process goes away.
    event.preventDefault();
    stopped = true;
    void runtime.stop().finally(() => app.quit());
  });
}
