// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HostPush } from '../../../shared/host-api';
import { connectHost, reconnectDelay } from '../../../renderer/host/hostClient';
import { ConnectionBanner } from '../../../renderer/panels/ConnectionBanner';
import { LOST_AFTER_FAILED_ATTEMPTS, useConnectionStore } from '../../../renderer/stores/connectionStore';

/** A WebSocket the test opens, refuses and drops by hand. */
class FakeSocket {
  static readonly OPEN = 1;
  static readonly all: FakeSocket[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  readonly sent: string[] = [];
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  accept() {
    this.readyState = 1;
    this.onopen?.();
  }
  refuse() {
    this.readyState = 3;
    this.onerror?.();
  }
  drop() {
    this.readyState = 3;
    this.onclose?.();
  }
}

const latest = () => FakeSocket.all[FakeSocket.all.length - 1];

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all.length = 0;
  vi.stubGlobal('WebSocket', FakeSocket);
  useConnectionStore.getState().connected();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function connected() {
  const connecting = connectHost();
  latest()!.accept();
  return connecting;
}

describe('reconnecting to crewdeck serve (browser mode)', () => {
  it('waits 1 s, 2 s, 4 s, 8 s, then 10 s between attempts', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 10000, 10000, 10000]);
  });

  it('backs off, reports each failed attempt, counts as lost after ten, and refreshes everything once back', async () => {
    const api = await connected();
    const pushes: HostPush[] = [];
    api.subscribe((p) => pushes.push(p));
    expect(FakeSocket.all).toHaveLength(1);

    latest()!.drop();
    expect(useConnectionStore.getState()).toMatchObject({ status: 'reconnecting', failedAttempts: 0 });
    for (let failed = 0; failed < LOST_AFTER_FAILED_ATTEMPTS; failed++) {
      const delay = reconnectDelay(failed + 1);
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(FakeSocket.all).toHaveLength(1 + failed);
      await vi.advanceTimersByTimeAsync(1);
      expect(FakeSocket.all).toHaveLength(2 + failed);
      latest()!.refuse();
      await vi.advanceTimersByTimeAsync(0);
      expect(useConnectionStore.getState().failedAttempts).toBe(failed + 1);
      expect(useConnectionStore.getState().status).toBe(failed + 1 >= LOST_AFTER_FAILED_ATTEMPTS ? 'lost' : 'reconnecting');
    }
    // Still trying, every 10 s.
    await vi.advanceTimersByTimeAsync(10_000);
    latest()!.accept();
    await vi.advanceTimersByTimeAsync(0);
    expect(useConnectionStore.getState()).toMatchObject({ status: 'connected', failedAttempts: 0 });
    expect(pushes).toEqual([{ kind: 'runs.changed' }, { kind: 'documents.changed' }]);
  });

  it('fails calls made while disconnected instead of leaving them waiting', async () => {
    const api = await connected();
    const pending = api.invoke('documents.list', {});
    latest()!.drop();
    await expect(pending).rejects.toThrow(/lost the connection/);
    await expect(api.invoke('documents.list', {})).rejects.toThrow(/not connected/);
  });
});

describe('ConnectionBanner', () => {
  it('says nothing while connected, "reconnecting" after a drop, and what to do once lost', () => {
    render(<ConnectionBanner />);
    expect(screen.queryByTestId('connection-banner')).toBeNull();
    act(() => useConnectionStore.getState().reconnecting(0));
    expect(screen.getByTestId('connection-banner').textContent).toContain('Lost the connection to crewdeck serve — reconnecting…');
    act(() => useConnectionStore.getState().reconnecting(3));
    expect(screen.getByTestId('connection-banner').textContent).toContain('3 failed attempts');
    expect(screen.getByTestId('connection-banner').textContent).not.toContain('new token');
    act(() => useConnectionStore.getState().reconnecting(LOST_AFTER_FAILED_ATTEMPTS));
    expect(screen.getByTestId('connection-banner').dataset.status).toBe('lost');
    expect(screen.getByTestId('connection-banner').textContent).toContain('A restarted crewdeck serve has a new token: open the URL it printed.');
    act(() => useConnectionStore.getState().connected());
    expect(screen.queryByTestId('connection-banner')).toBeNull();
  });
});
