import { useEffect } from 'react';
import { useDocumentStore } from './stores/documentStore';
import { useRunStore } from './stores/runStore';
import { useUiStore } from './stores/uiStore';

/** Commands from Electron's native menus (browser mode has none; the canvas handles its own keys). */
export function useMenuCommands(): void {
  useEffect(() => {
    const bridge = window.crewdeck;
    if (!bridge) return;
    return bridge.onMenu((command) => {
      const ui = useUiStore.getState();
      switch (command) {
        case 'undo':
          return useDocumentStore.getState().undo();
        case 'redo':
          return useDocumentStore.getState().redo();
        case 'run':
          return ui.documentPath && ui.setRunDialogOpen(true);
        case 'stop':
          return void useRunStore.getState().cancel();
        case 'toggle-theme':
          return ui.setTheme(ui.theme === 'dark' ? 'light' : 'dark');
        case 'settings':
          return ui.setView(ui.view === 'settings' ? 'canvas' : 'settings');
      }
    });
  }, []);
}
