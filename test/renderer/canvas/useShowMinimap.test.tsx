// @vitest-environment jsdom
import { renderHook, act } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MINIMAP_AUTO_MAX_NODES, MINIMAP_AUTO_MIN_NODES, useShowMinimap } from '../../../renderer/canvas/useShowMinimap';
import { useUiStore } from '../../../renderer/stores/uiStore';

afterEach(() => useUiStore.setState({ minimap: 'auto' }));

describe('the canvas minimap', () => {
  it('hides by default on small crews (they fit in view; it would cover a node) and on large ones, where it slows dragging', () => {
    expect(renderHook(() => useShowMinimap(12)).result.current).toBe(false);
    expect(renderHook(() => useShowMinimap(MINIMAP_AUTO_MIN_NODES - 1)).result.current).toBe(false);
    expect(renderHook(() => useShowMinimap(MINIMAP_AUTO_MIN_NODES)).result.current).toBe(true);
    expect(renderHook(() => useShowMinimap(MINIMAP_AUTO_MAX_NODES)).result.current).toBe(true);
    expect(renderHook(() => useShowMinimap(MINIMAP_AUTO_MAX_NODES + 1)).result.current).toBe(false);
  });

  it("follows the person's choice once they make one", () => {
    const large = renderHook(() => useShowMinimap(300));
    act(() => useUiStore.getState().setMinimap('on'));
    expect(large.result.current).toBe(true);
    const small = renderHook(() => useShowMinimap(5));
    act(() => useUiStore.getState().setMinimap('off'));
    expect(small.result.current).toBe(false);
  });
});
