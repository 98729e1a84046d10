/** Drag-and-drop payload type from the palette to the canvas. */
export const PALETTE_MIME = 'application/x-crewdeck-node';
export type PaletteItem = 'agent' | 'task';
