import { app, BrowserWindow, dialog, nativeTheme, shell } from 'electron';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { IPC } from '../ipcChannels';
import type { MenuCommand } from './appMenu';
import { createMainWindow } from './mainWindow';
import { externalUrl } from './navigationGuards';
import type { RuntimeConnection } from './runtimeConnection';
import { storedEnvironment } from './secretsChannel';
import type { SecretStore } from './secretStore';
import type { LastWorkspace } from './workspaceChoice';

export interface WorkspaceWindowOptions {
  productName: string;
  preload: string;
  indexHtml: string;
  userData: string;
  secrets: SecretStore;
  lastWorkspace: LastWorkspace;
  runtime: RuntimeConnection;
  openExternal: (url: string) => void;
  log: (line: string) => void;
}

/**
 * The app's one window over the open workspace: showing it (titled after the workspace), switching to
 * another workspace, and the dialogs and menu actions that belong to it.
 */
export class WorkspaceWindow {
  private window: BrowserWindow | undefined;
  private workspace = '';

  constructor(private readonly options: WorkspaceWindowOptions) {}

  show(): void {
    const { preload, indexHtml, userData } = this.options;
    this.window = createMainWindow({
      preload,
      indexHtml,
      stateFile: join(userData, 'window-state.json'),
      title: this.title(),
      backgroundColor: nativeTheme.shouldUseDarkColors ? '#14161b' : '#ffffff',
    });
    // The page's <title> would replace the workspace name.
    this.window.on('page-title-updated', (event) => event.preventDefault());
  }

  /** A second launch: brings the window back, or opens one when it was closed. */
  focus(): void {
    const window = this.live();
    if (!window) return this.show();
    if (window.isMinimized()) window.restore();
    window.focus();
  }

  async openWorkspace(dir: string): Promise<void> {
    this.workspace = dir;
    try {
      this.options.lastWorkspace.write(dir);
    } catch (error) {
      this.options.log(`crewdeck: could not remember the workspace: ${(error as Error).message}`);
    }
    await this.options.runtime.start(dir, storedEnvironment(this.options.secrets, this.options.log));
  }

  async pickWorkspace(): Promise<void> {
    const options = { title: 'Open Workspace', defaultPath: this.workspace, properties: ['openDirectory', 'createDirectory'] } as Electron.OpenDialogOptions;
    const parent = this.live();
    const picked = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
    const dir = picked.filePaths[0];
    if (picked.canceled || !dir || dir === this.workspace) return;
    await this.openWorkspace(dir);
    const window = this.live();
    if (window) {
      window.setTitle(this.title());
      // Everything on screen belonged to the old workspace: start the renderer afresh.
      window.webContents.reload();
    } else {
      this.show();
    }
  }

  sendMenuCommand(command: MenuCommand): void {
    const window = this.live();
    if (!window) return this.show();
    window.webContents.send(IPC.menu, command);
  }

  /** A message box over the window (or on its own when there is none). */
  showMessageBox(options: Electron.MessageBoxOptions): Promise<Electron.MessageBoxReturnValue> {
    const parent = this.live();
    return parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options);
  }

  async showWorkspaceError(message: string): Promise<void> {
    const options: Electron.MessageBoxOptions = {
      type: 'error',
      message: `${this.options.productName} could not open the workspace`,
      detail: message,
      buttons: ['Open Another Workspace…', 'Close'],
      defaultId: 0,
      cancelId: 1,
    };
    const { response } = await this.showMessageBox(options);
    if (response === 0) await this.pickWorkspace();
  }

  openDocs(): void {
    const homepage = readHomepage();
    if (homepage) this.options.openExternal(homepage);
    else void shell.openPath(join(app.getAppPath(), 'README.md'));
  }

  showAbout(): void {
    const { productName } = this.options;
    const detail = [
      `Version ${app.getVersion()}`,
      `Electron ${process.versions.electron} · Chromium ${process.versions.chrome} · Node ${process.versions.node}`,
      `Workspace: ${this.workspace}`,
    ].join('\n');
    const options: Electron.MessageBoxOptions = { type: 'info', title: `About ${productName}`, message: productName, detail, buttons: ['OK'] };
    void this.showMessageBox(options);
  }

  private title(): string {
    return `${basename(this.workspace)} — ${this.options.productName}`;
  }

  private live(): BrowserWindow | undefined {
    return this.window && !this.window.isDestroyed() ? this.window : undefined;
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
