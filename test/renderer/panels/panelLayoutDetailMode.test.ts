// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DETAIL_MODE_KEY } from '../../../renderer/stores/panelLayoutStore';

// Where span details show (beside the tree, popped out into the side panel, maximised) is remembered.
const freshStore = async () => {
  vi.resetModules();
  return (await import('../../../renderer/stores/panelLayoutStore')).usePanelLayoutStore;
};

beforeEach(() => localStorage.clear());
afterEach(() => localStorage.clear());

describe('span detail mode', () => {
  it('starts docked, and a choice is saved and read back by the next session', async () => {
    let store = await freshStore();
    expect(store.getState()).toMatchObject({ detailMode: 'docked', detailMaximised: false });
    store.getState().setDetailMode('side');
    expect(localStorage.getItem(DETAIL_MODE_KEY)).toBe('side');
    store = await freshStore();
    expect(store.getState()).toMatchObject({ detailMode: 'side', detailMaximised: false });
    store.getState().setDetailMaximised(true);
    store = await freshStore();
    expect(store.getState()).toMatchObject({ detailMode: 'maximised', detailMaximised: true });
  });

  it('un-maximising docks maximised details but leaves the side panel alone; junk in storage reads as docked', async () => {
    const store = await freshStore();
    store.getState().setDetailMode('side');
    store.getState().setDetailMaximised(false);
    expect(store.getState().detailMode).toBe('side');
    store.getState().setDetailMaximised(true);
    store.getState().setDetailMaximised(false);
    expect(store.getState().detailMode).toBe('docked');
    localStorage.setItem(DETAIL_MODE_KEY, 'floating');
    expect((await freshStore()).getState().detailMode).toBe('docked');
  });
});
