// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { ReactFlowProvider, useStoreApi } from '@xyflow/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CanvasBackground, DOT_GAP, dotGridScale, dotGridStyle } from '../../../renderer/canvas/CanvasBackground';

afterEach(cleanup);

describe('the canvas dot grid', () => {
  it('keeps React Flow’s spacing from zoom 0.5 up, and thins out by powers of two below, 9–18 px apart on screen', () => {
    expect([2, 1, 0.5].map(dotGridScale)).toEqual([1, 1, 1]);
    expect(dotGridScale(0.49)).toBe(2);
    expect(dotGridScale(0.25)).toBe(2);
    expect(dotGridScale(0.1)).toBe(8);
    for (let zoom = 0.1; zoom <= 0.5; zoom += 0.01) {
      const onScreen = DOT_GAP * dotGridScale(zoom) * zoom;
      expect(onScreen, `zoom ${zoom}`).toBeGreaterThanOrEqual(9 - 1e-9);
      expect(onScreen, `zoom ${zoom}`).toBeLessThanOrEqual(18 + 1e-9);
    }
    // A zoom that is not a number (a view not measured yet) gets the plain grid.
    expect(dotGridScale(0)).toBe(1);
    expect(dotGridScale(Number.NaN)).toBe(1);
  });

  it('centres a tile on a dot at canvas multiples of the spacing, the dot as wide as React Flow drew it', () => {
    expect(dotGridStyle([0, 0, 1])).toEqual({ size: 18, x: -9, y: -9, radius: 0.5 });
    // Panned by (100, 40) at zoom 2: a dot at canvas (0, 0) is at screen (100, 40), the tile 36 px.
    expect(dotGridStyle([100, 40, 2])).toEqual({ size: 36, x: 82, y: 22, radius: 1 });
    const far = dotGridStyle([0, 0, 0.1]);
    expect(far.size).toBeCloseTo(14.4);
    expect(far.radius).toBeCloseTo(0.4);
  });

  it('follows pan and zoom by style writes on its own element', () => {
    let api!: ReturnType<typeof useStoreApi>;
    function Grab() {
      api = useStoreApi();
      return null;
    }
    render(
      <ReactFlowProvider>
        <Grab />
        <CanvasBackground />
      </ReactFlowProvider>,
    );
    const el = screen.getByTestId('canvas-background');
    expect(el.style.backgroundSize).toBe('18px 18px');
    act(() => api.setState({ transform: [100, 40, 2] }));
    expect(el.style.backgroundSize).toBe('36px 36px');
    expect(el.style.backgroundPosition).toBe('82px 22px');
    expect(el.style.getPropertyValue('--dot-radius')).toBe('1px');
    act(() => api.setState({ transform: [0, 0, 0.25] }));
    expect(el.style.backgroundSize).toBe('9px 9px');
  });
});
