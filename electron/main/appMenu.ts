import type { MenuItemConstructorOptions } from 'electron';

/**
 * Commands the menus send to the renderer (`window.crewdeck.onMenu(listener)`, renderer/useMenuCommands.ts);
 * everything else the menus do happens in main (open workspace, quit, zoom, dev tools). The canvas has
 * its own history, so undo/redo go to the renderer, which knows whether a text field has the focus.
 */
import type { MenuCommand } from '../../shared/menuCommands';

export { MENU_COMMANDS, type MenuCommand } from '../../shared/menuCommands';

export interface MenuActions {
  isMac: boolean;
  appName: string;
  send(command: MenuCommand): void;
  openWorkspace(): void;
  openDocs(): void;
  showAbout(): void;
}

export function buildMenuTemplate(actions: MenuActions): MenuItemConstructorOptions[] {
  const { isMac, send } = actions;
  const command = (label: string, name: MenuCommand, accelerator?: string): MenuItemConstructorOptions => ({
    label,
    accelerator,
    click: () => send(name),
  });
  const settings = command('Settings…', 'settings', 'CmdOrCtrl+,');
  // Edit shortcuts stay with the page on Windows and Linux (shown, not registered): the canvas handles
  // Ctrl+Z/C/V/A itself and text fields natively. On macOS the page sees key equivalents first, and
  // the menu gets only those it leaves alone (Cmd+Z in a plain text field, Cmd+C in an input).
  const editKey = (item: MenuItemConstructorOptions): MenuItemConstructorOptions => (isMac ? item : { ...item, registerAccelerator: false });
  // `&` marks the Alt mnemonic on Windows and Linux; macOS menus have none.
  const top = (label: string) => (isMac ? label : `&${label}`);

  const appMenu: MenuItemConstructorOptions[] = isMac
    ? [
        {
          label: actions.appName,
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            settings,
            { type: 'separator' },
            { role: 'services' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { role: 'quit' },
          ],
        },
      ]
    : [];

  return [
    ...appMenu,
    {
      label: top('File'),
      submenu: [
        command('New Crew', 'new-crew', 'CmdOrCtrl+N'),
        command('Import CrewAI Project…', 'import-crewai'),
        { label: 'Open Workspace…', accelerator: 'CmdOrCtrl+O', click: () => actions.openWorkspace() },
        { type: 'separator' },
        command('Save', 'save', 'CmdOrCtrl+S'),
        ...(isMac ? [] : ([{ type: 'separator' }, settings] as MenuItemConstructorOptions[])),
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit', label: 'Quit', accelerator: 'Ctrl+Q' },
      ],
    },
    {
      label: top('Edit'),
      submenu: [
        editKey(command('Undo', 'undo', 'CmdOrCtrl+Z')),
        editKey(command('Redo', 'redo', 'Shift+CmdOrCtrl+Z')),
        { type: 'separator' },
        editKey({ role: 'cut' }),
        editKey({ role: 'copy' }),
        editKey({ role: 'paste' }),
        editKey({ role: 'selectAll' }),
      ],
    },
    {
      label: top('View'),
      submenu: [
        command('Fit View', 'fit-view', 'Shift+CmdOrCtrl+1'),
        command('Toggle Theme', 'toggle-theme', 'Shift+CmdOrCtrl+L'),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        { type: 'separator' },
        { role: 'reload' },
        { role: 'toggleDevTools' },
      ],
    },
    {
      label: top('Run'),
      submenu: [command('Run…', 'run', 'F5'), command('Run for Each Row…', 'run-for-each-row'), command('Stop', 'stop', 'Shift+F5')],
    },
    ...(isMac ? ([{ role: 'windowMenu' }] as MenuItemConstructorOptions[]) : []),
    {
      role: 'help',
      label: top('Help'),
      submenu: [
        { label: 'Documentation', click: () => actions.openDocs() },
        ...(isMac ? [] : ([{ type: 'separator' }, { label: `About ${actions.appName}`, click: () => actions.showAbout() }] as MenuItemConstructorOptions[])),
      ],
    },
  ];
}
