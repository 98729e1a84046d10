import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW_STATE, loadWindowState, saveWindowState, type Rectangle } from '../../electron/main/windowBounds';

const laptop: Rectangle = { x: 0, y: 0, width: 1920, height: 1080 };
const monitorRight: Rectangle = { x: 1920, y: 0, width: 2560, height: 1440 };

let dir = '';
let file = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crewdeck-bounds-'));
  file = join(dir, 'window-state.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('window bounds', () => {
  it('gives the defaults, centred, when nothing was saved', () => {
    expect(loadWindowState(file, [laptop])).toEqual(DEFAULT_WINDOW_STATE);
  });

  it('restores what was saved', () => {
    saveWindowState(file, { x: 100, y: 80, width: 1200, height: 800, maximized: true });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ x: 100, y: 80, width: 1200, height: 800, maximized: true });
    expect(loadWindowState(file, [laptop])).toEqual({ x: 100, y: 80, width: 1200, height: 800, maximized: true });
  });

  it('keeps a position on a second display while that display is there', () => {
    saveWindowState(file, { x: 2200, y: 100, width: 1600, height: 1000, maximized: false });
    expect(loadWindowState(file, [laptop, monitorRight])).toMatchObject({ x: 2200, y: 100 });
  });

  it('ignores a position that is off every display (the monitor was unplugged)', () => {
    saveWindowState(file, { x: 2200, y: 100, width: 1600, height: 1000, maximized: false });
    const state = loadWindowState(file, [laptop]);
    expect(state.x).toBeUndefined();
    expect(state.y).toBeUndefined();
    expect(state).toMatchObject({ width: 1600, height: 1000 });
  });

  it('ignores a position whose title bar cannot be reached', () => {
    saveWindowState(file, { x: 100, y: -500, width: 1200, height: 800, maximized: false });
    expect(loadWindowState(file, [laptop]).y).toBeUndefined();
    saveWindowState(file, { x: 1900, y: 100, width: 1200, height: 800, maximized: false });
    expect(loadWindowState(file, [laptop]).x).toBeUndefined();
    saveWindowState(file, { x: 1700, y: 100, width: 1200, height: 800, maximized: false });
    expect(loadWindowState(file, [laptop]).x).toBe(1700);
  });

  it('shrinks a size larger than any display and enforces the minimum size', () => {
    saveWindowState(file, { x: 0, y: 0, width: 5000, height: 3000, maximized: false });
    expect(loadWindowState(file, [laptop])).toMatchObject({ width: 1920, height: 1080 });
    saveWindowState(file, { x: 0, y: 0, width: 10, height: 10, maximized: false });
    expect(loadWindowState(file, [laptop])).toMatchObject({ width: 900, height: 600 });
  });

  it('falls back to the defaults for a corrupt or foreign file', () => {
    writeFileSync(file, '{"x": 10, "y":');
    expect(loadWindowState(file, [laptop])).toEqual(DEFAULT_WINDOW_STATE);
    writeFileSync(file, JSON.stringify({ x: 'left', y: null, width: -4, height: 'tall', maximized: 'yes' }));
    expect(loadWindowState(file, [laptop])).toEqual(DEFAULT_WINDOW_STATE);
  });
});
