/** Electron IPC channel names between the preload bridge and main (the host contract rides on these). */
export const IPC = {
  /** renderer → main: `(channel, request)` → HostResult */
  invoke: 'crewdeck:invoke',
  /** main → renderer: HostPush */
  push: 'crewdeck:push',
  /** main → renderer: a menu command (electron/main/appMenu.ts MENU_COMMANDS) */
  menu: 'crewdeck:menu',
} as const;
