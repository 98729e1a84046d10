/** Commands the desktop app's native menus send to the renderer (Electron main → preload → renderer). */
export const MENU_COMMANDS = ['new-crew', 'import-crewai', 'save', 'settings', 'undo', 'redo', 'toggle-theme', 'fit-view', 'run', 'run-for-each-row', 'stop'] as const;
export type MenuCommand = (typeof MENU_COMMANDS)[number];
