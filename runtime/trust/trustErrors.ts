import type { HeldPart } from './heldPart';

/** A run (or a tool listing) needs a part of the workspace's settings that the user has not trusted. */
export class WorkspaceUntrusted extends Error {
  override name = 'WorkspaceUntrusted';
  constructor(readonly parts: readonly HeldPart[]) {
    super(
      `this workspace is not trusted, and ${parts.map((p) => `${p.where} ${p.summary}`).join('; ')}. ` +
        'Review it and trust it with `crewdeck trust` (or the Trust button in the app), then try again',
    );
  }
}
