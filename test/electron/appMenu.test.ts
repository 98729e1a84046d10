import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { buildMenuTemplate, MENU_COMMANDS, type MenuCommand } from '../../electron/main/appMenu';

function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? flatten(item.submenu) : [])]);
}

function template(isMac: boolean) {
  const sent: MenuCommand[] = [];
  const calls: string[] = [];
  const items = buildMenuTemplate({
    isMac,
    appName: 'Crewdeck',
    send: (command) => sent.push(command),
    openWorkspace: () => calls.push('openWorkspace'),
    openDocs: () => calls.push('openDocs'),
    showAbout: () => calls.push('showAbout'),
  });
  const click = (label: string) => {
    const item = flatten(items).find((i) => i.label === label);
    if (!item?.click) throw new Error(`no menu item "${label}"`);
    (item.click as () => void)();
  };
  return { items, sent, calls, click };
}

describe('application menu', () => {
  for (const isMac of [false, true]) {
    it(`${isMac ? 'macOS' : 'Windows/Linux'}: every renderer command is reachable and accelerators are unique`, () => {
      const { items, sent, click } = template(isMac);
      const all = flatten(items);
      for (const label of ['New Crew', 'Import CrewAI Project…', 'Save', 'Settings…', 'Undo', 'Redo', 'Toggle Theme', 'Fit View', 'Run…', 'Run for Each Row…', 'Stop']) click(label);
      expect([...sent].sort()).toEqual([...MENU_COMMANDS].sort());
      const accelerators = all.map((i) => i.accelerator).filter((a): a is string => typeof a === 'string');
      expect(new Set(accelerators).size).toBe(accelerators.length);
      // Shortcuts without a modifier would swallow typing in text fields.
      for (const a of accelerators) expect(a, a).toMatch(/CmdOrCtrl|Ctrl|Cmd|^F\d+$|^Shift\+F\d+$/);
      expect(all.filter((i) => /import/i.test(String(i.label))).map((i) => i.label)).toEqual(['Import CrewAI Project…']);
      // Edit keys belong to the page on Windows/Linux (the canvas and text fields handle them).
      const edit = all.filter((i) => ['Undo', 'Redo'].includes(String(i.label)) || ['cut', 'copy', 'paste', 'selectAll'].includes(String(i.role)));
      expect(edit).toHaveLength(6);
      for (const item of edit) expect(item.registerAccelerator, String(item.label ?? item.role)).toBe(isMac ? undefined : false);
    });
  }

  it('main-process actions and standard roles are wired', () => {
    const { items, calls, click } = template(false);
    click('Open Workspace…');
    click('Documentation');
    click('About Crewdeck');
    expect(calls).toEqual(['openWorkspace', 'openDocs', 'showAbout']);
    const roles = flatten(items).map((i) => i.role).filter(Boolean);
    for (const role of ['cut', 'copy', 'paste', 'selectAll', 'reload', 'toggleDevTools', 'zoomIn', 'zoomOut', 'resetZoom', 'quit']) expect(roles).toContain(role);
    expect(items.map((i) => i.label)).toEqual(['&File', '&Edit', '&View', '&Run', '&Help']);
  });

  it('macOS has the app menu with about and quit, and a window menu', () => {
    const { items } = template(true);
    expect(items[0]!.label).toBe('Crewdeck');
    const appRoles = flatten([items[0]!]).map((i) => i.role);
    expect(appRoles).toEqual(expect.arrayContaining(['about', 'quit', 'hide']));
    expect(items.some((i) => i.role === 'windowMenu')).toBe(true);
  });
});
