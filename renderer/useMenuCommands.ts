import { useEffect } from 'react';
import type { MenuCommand } from '../shared/menuCommands';
import { keepsOwnTextHistory } from './commands/textHistory';
import { useBatchRunStore } from './dialogs/batchRun/batchRunStore';
import { useImportCrewAiStore } from './dialogs/importCrewAi/importCrewAiStore';
import { useDocumentStore } from './stores/documentStore';
import { useRunStore } from './stores/runStore';
import { useUiStore } from './stores/uiStore';

/**
 * Undo/redo from the menu: a plain text field (outside the inspector's undo scope, or one that keeps
 * its own history) undoes its typing; everywhere else the document's history applies — the same rule
 * as the canvas keys (canvas/useCanvasShortcuts.ts).
 */
function historyStep(step: 'undo' | 'redo'): void {
  if (keepsOwnTextHistory(document.activeElement)) document.execCommand(step);
  else if (step === 'undo') useDocumentStore.getState().undo();
  else useDocumentStore.getState().redo();
}

const HANDLERS = {
  'new-crew': () => {
    useUiStore.getState().setView('canvas');
    document.querySelector<HTMLInputElement>('input[aria-label="New crew name"]')?.focus();
  },
  'import-crewai': () => useImportCrewAiStore.getState().setOpen(true),
  save: () => void useDocumentStore.getState().flushSave(),
  settings: () => {
    const ui = useUiStore.getState();
    ui.setView(ui.view === 'settings' ? 'canvas' : 'settings');
  },
  undo: () => historyStep('undo'),
  redo: () => historyStep('redo'),
  'toggle-theme': () => {
    const ui = useUiStore.getState();
    ui.setTheme(ui.theme === 'dark' ? 'light' : 'dark');
  },
  'fit-view': () => useUiStore.getState().requestFitView(),
  run: () => {
    if (useDocumentStore.getState().path) useUiStore.getState().setRunDialogOpen(true);
  },
  'run-for-each-row': () => {
    if (useDocumentStore.getState().path) useBatchRunStore.getState().setOpen(true);
  },
  stop: () => void useRunStore.getState().cancel(),
} satisfies Record<MenuCommand, () => void>;

/** Commands from Electron's native menus (browser mode has none; the canvas handles its own keys). */
export function useMenuCommands(): void {
  useEffect(() => {
    const bridge = window.crewdeck;
    if (!bridge) return;
    return bridge.onMenu((command) => {
      if (Object.prototype.hasOwnProperty.call(HANDLERS, command)) HANDLERS[command as MenuCommand]();
    });
  }, []);
}
