import { checkHostRequest, type HostChannel } from '../../shared/host-api';
import { IPC } from '../ipcChannels';
import { sameDocument } from './navigationGuards';

/** What main reads of an `ipcMain.handle` event: the frame that sent the request (gone once it navigated away). */
export interface InvokeEvent {
  senderFrame?: { url: string } | null;
}

/** The part of Electron's ipcMain this needs (a fake stands in for it in tests). */
export interface InvokeRegistry {
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => unknown): void;
}

export const FOREIGN_SENDER_REFUSAL = { ok: false, error: { code: 'internal', message: 'refused: the request did not come from the Crewdeck window' } } as const;

/** Whether the request came from the app's own page (not another page, a subframe elsewhere or a detached frame). */
export function fromAppWindow(event: InvokeEvent, appUrl: string): boolean {
  return !!event.senderFrame && sameDocument(event.senderFrame.url, appUrl);
}

/**
 * Handles `crewdeck:invoke`: a request from anywhere but the app's page is refused, then the channel and
 * request are checked against the host contract; only a well-formed request reaches `dispatch`.
 */
export function handleInvoke(ipc: InvokeRegistry, appUrl: string, dispatch: (channel: HostChannel, request: unknown) => Promise<unknown>): void {
  ipc.handle(IPC.invoke, async (event, channel, request) => {
    if (!fromAppWindow(event, appUrl)) return FOREIGN_SENDER_REFUSAL;
    const gate = checkHostRequest(channel, request);
    if (!gate.ok) return gate;
    return dispatch(gate.channel, gate.request);
  });
}
