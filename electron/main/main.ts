// Crewdeck's Electron main process: one window over the renderer build, native menus, the API key
// store, and the runtime in a utility process. Built to dist/electron/main.cjs (scripts/buildElectron.mjs).
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeTheme, safeStorage, session, shell } from 'electron';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HostPush } from '../../shared/host-api';
import { IPC } from '../ipcChannels';
import { buildMenuTemplate, type MenuCommand } from './appMenu';
import { installContentSecurityPolicy } from './contentSecurityPolicy';
import { createMainWindow } from './mainWindow';
import { guardContents, isPermissionAllowed, externalUrl, openExternalSafely } from './navigationGuards';
import { handleInvoke } from './invokeHandler';
import { RuntimeConnection } from './runtimeConnection';
import { grantTrustWithDialog, trustDialogText } from './trustGrant';
import { forkRuntime } from './runtimeProcess';
import { handleSecretRequest, isSecretChannel, storedEnvironment } from './secretsChannel';
import { SecretStore, safeStorageEncryptor } from './secretStore';
import { chooseWorkspace, createWorkspace, defaultWorkspace, LastWorkspace, workspaceArgument } from './workspaceChoice';

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
  let window: BrowserWindow | undefined;
  let workspace = '';

  installContentSecurityPolicy(session.defaultSession);
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(isPermissionAllowed(permission, details.requestingUrl, appUrl)),
  );
  session.defaultSession.setPermissionCheckHandler((contents, permission) => isPermissionAllowed(permission, contents?.getURL() ?? '', appUrl));
  const openExternal = openExternalSafely((url) => shell.openExternal(url));
  app.on('web-contents-created', (_event, contents) => guardContents(contents, () => appUrl, openExternal));

  const pushToWindows = (push: HostPush) => {
    for (const w of BrowserWindow.getAllWindows()) if (!w.isDestroyed()) w.webContents.send(IPC.push, push);
  };
  const runtime = new RuntimeConnection({
    spawn: forkRuntime(paths.runtimeHost),
    onPush: pushToWindows,
    onFatal: (message) => void showWorkspaceError(message),
    log,
  });

  const choice = chooseWorkspace({
    argument: workspaceArgument(process.argv, process.cwd()),
    last: lastWorkspace.read(),
    fallback: defaultWorkspace(app.getPath('documents')),
  });
  if (choice.warning) log(`crewdeck: ${choice.warning}`);
  if (choice.create) createWorkspace(choice.workspace, join(app.getAppPath(), 'examples'));
  await openWorkspace(choice.workspace);

  handleInvoke(ipcMain, appUrl, async (channel, request) => {
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
          const { response } = window && !window.isDestroyed() ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options);
          return response === 0;
        },
      );
    }
    return runtime.request(channel, request);
  });

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate({
        isMac: process.platform === 'darwin',
        appName: PRODUCT_NAME,
        send: sendMenuCommand,
        openWorkspace: () => void pickWorkspace(),
        openDocs,
        showAbout,
      }),
    ),
  );
  app.setAboutPanelOptions({ applicationName: PRODUCT_NAME, applicationVersion: app.getVersion(), copyright: 'MIT License' });

  showWindow();

  app.on('second-instance', () => {
    if (!window || window.isDestroyed()) return showWindow();
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) showWindow();
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

  function showWindow(): void {
    window = createMainWindow({
      preload: paths.preload,
      indexHtml: paths.indexHtml,
      stateFile: join(userData, 'window-state.json'),
      title: windowTitle(),
      backgroundColor: nativeTheme.shouldUseDarkColors ? '#14161b' : '#ffffff',
    });
    // The page's <title> would replace the workspace name.
    window.on('page-title-updated', (event) => event.preventDefault());
  }

  function windowTitle(): string {
    return `${basename(workspace)} — ${PRODUCT_NAME}`;
  }

  async function openWorkspace(dir: string): Promise<void> {
    workspace = dir;
    try {
      lastWorkspace.write(dir);
    } catch (error) {
      log(`crewdeck: could not remember the workspace: ${(error as Error).message}`);
    }
    await runtime.start(dir, storedEnvironment(secrets, log));
  }

  async function pickWorkspace(): Promise<void> {
    const options = { title: 'Open Workspace', defaultPath: workspace, properties: ['openDirectory', 'createDirectory'] } as Electron.OpenDialogOptions;
    const picked = window && !window.isDestroyed() ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
    const dir = picked.filePaths[0];
    if (picked.canceled || !dir || dir === workspace) return;
    await openWorkspace(dir);
    if (window && !window.isDestroyed()) {
      window.setTitle(windowTitle());
      // Everything on screen belonged to the old workspace: start the renderer afresh.
      window.webContents.reload();
    } else {
      showWindow();
    }
  }

  function sendMenuCommand(command: MenuCommand): void {
    if (!window || window.isDestroyed()) return showWindow();
    window.webContents.send(IPC.menu, command);
  }

  async function showWorkspaceError(message: string): Promise<void> {
    const options: Electron.MessageBoxOptions = {
      type: 'error',
      message: `${PRODUCT_NAME} could not open the workspace`,
      detail: message,
      buttons: ['Open Another Workspace…', 'Close'],
      defaultId: 0,
      cancelId: 1,
    };
    const { response } = window && !window.isDestroyed() ? await dialog.showMessageBox(window, options) : await dialog.showMessageBox(options);
    if (response === 0) await pickWorkspace();
  }

  function openDocs(): void {
    const homepage = readHomepage();
    if (homepage) openExternal(homepage);
    else void shell.openPath(join(app.getAppPath(), 'README.md'));
  }

  function showAbout(): void {
    const detail = [
      `Version ${app.getVersion()}`,
      `Electron ${process.versions.electron} · Chromium ${process.versions.chrome} · Node ${process.versions.node}`,
      `Workspace: ${workspace}`,
    ].join('\n');
    const options: Electron.MessageBoxOptions = { type: 'info', title: `About ${PRODUCT_NAME}`, message: PRODUCT_NAME, detail, buttons: ['OK'] };
    void (window && !window.isDestroyed() ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options));
  }
}

/** package.json's `homepage`, when it is a web address. */
function readHomepage(): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(join(app.getAppPath(), 'package.json'), 'utf8')) as { homepage?: unknown };
    return typeof pkg.homepage === 'string' ? externalUrl(pkg.homepage) : undefined;
  } catch {
    return undefined;
  }
}
