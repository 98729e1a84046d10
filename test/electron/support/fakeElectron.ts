import { fork } from 'node:child_process';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { repoRoot } from './nodeRuntimeChild';

/**
 * Just enough of Electron's main-process API to run dist/electron/main.cjs in Node: windows, IPC,
 * menus and dialogs are recorded; utilityProcess.fork starts a real Node child (with the parentPort
 * shim) so the real runtime bundle answers. Stands in for the Electron binary, which is not installed.
 */
export function createFakeElectron(options: { userData: string; documents: string }) {
  const appEvents = new EventEmitter();
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  const windows: FakeWindow[] = [];
  const children: Array<{ kill(): void; exited: Promise<number | null> }> = [];
  const state = {
    quitCalls: 0,
    menu: [] as MenuItemConstructorOptions[],
    opened: [] as string[],
    openDialogResult: [] as string[],
    headersListener: undefined as unknown,
    forks: [] as Array<{ modulePath: string; args: string[] }>,
  };
  const key = randomBytes(32);

  class FakeWindow extends EventEmitter {
    readonly sent: Array<[string, unknown]> = [];
    loaded: string | undefined;
    title: string;
    reloads = 0;
    destroyed = false;
    readonly webContents = {
      send: (channel: string, payload: unknown) => this.sent.push([channel, payload]),
      reload: () => (this.reloads += 1),
      on: () => undefined,
    };
    constructor(readonly options: Record<string, unknown> & { title: string }) {
      super();
      this.title = options.title;
      windows.push(this);
    }
    static getAllWindows = () => windows.filter((w) => !w.destroyed);
    loadFile = async (file: string) => void (this.loaded = file);
    isDestroyed = () => this.destroyed;
    isMinimized = () => false;
    isMaximized = () => false;
    isFullScreen = () => false;
    maximize = () => undefined;
    show = () => undefined;
    restore = () => undefined;
    focus = () => undefined;
    setTitle = (title: string) => void (this.title = title);
    getNormalBounds = () => ({ x: 10, y: 20, width: 1300, height: 850 });
  }

  const electron = {
    app: {
      setName: () => undefined,
      enableSandbox: () => undefined,
      requestSingleInstanceLock: () => true,
      whenReady: () => Promise.resolve(),
      getPath: (name: string) => (name === 'userData' ? options.userData : name === 'documents' ? options.documents : join(options.userData, name)),
      getAppPath: () => repoRoot,
      getVersion: () => '0.1.0',
      setAboutPanelOptions: () => undefined,
      on: (event: string, listener: (...args: unknown[]) => void) => appEvents.on(event, listener),
      quit: () => void (state.quitCalls += 1),
    },
    BrowserWindow: FakeWindow,
    ipcMain: { handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) => handlers.set(channel, handler) },
    Menu: {
      buildFromTemplate: (template: MenuItemConstructorOptions[]) => template,
      setApplicationMenu: (menu: MenuItemConstructorOptions[]) => void (state.menu = menu),
    },
    dialog: {
      showOpenDialog: async () => ({ canceled: state.openDialogResult.length === 0, filePaths: state.openDialogResult }),
      showMessageBox: async () => ({ response: 1 }),
    },
    shell: { openExternal: async (url: string) => void state.opened.push(url), openPath: async (path: string) => (state.opened.push(path), '') },
    nativeTheme: { shouldUseDarkColors: true },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: (listener: unknown) => void (state.headersListener = listener) },
        setPermissionRequestHandler: () => undefined,
        setPermissionCheckHandler: () => undefined,
      },
    },
    safeStorage: {
      isEncryptionAvailable: () => true,
      getSelectedStorageBackend: () => 'gnome_libsecret',
      encryptString(plainText: string) {
        const iv = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', key, iv);
        const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
        return Buffer.concat([iv, cipher.getAuthTag(), body]);
      },
      decryptString(data: Buffer) {
        const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
        decipher.setAuthTag(data.subarray(12, 28));
        return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
      },
    },
    utilityProcess: {
      fork(modulePath: string, args: string[], forkOptions: { env?: NodeJS.ProcessEnv; cwd?: string }) {
        state.forks.push({ modulePath, args });
        const child = fork(join(repoRoot, 'test/electron/support/parentPortShim.cjs'), [modulePath, ...args], {
          env: forkOptions.env,
          cwd: forkOptions.cwd,
          stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        });
        const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
        children.push({ kill: () => child.kill('SIGKILL'), exited });
        return {
          postMessage: (message: unknown) => {
            if (child.connected) child.send(message as never);
          },
          on(event: 'message' | 'exit', listener: (value: unknown) => void) {
            child.on(event, (value) => listener(value));
            return this;
          },
          kill: () => child.kill(),
        };
      },
    },
  };

  return {
    electron,
    state,
    windows,
    children,
    invoke: (url: string, ...args: unknown[]) => {
      const handler = handlers.get('crewdeck:invoke');
      if (!handler) throw new Error('crewdeck:invoke is not handled');
      return handler({ senderFrame: { url } }, ...args) as Promise<{ ok: boolean; response?: unknown; error?: { code: string; message: string } }>;
    },
    hasHandler: () => handlers.has('crewdeck:invoke'),
    emitApp: (event: string, ...args: unknown[]) => appEvents.emit(event, ...args),
  };
}
