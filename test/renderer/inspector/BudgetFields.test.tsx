// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Inspector } from '../../../renderer/panels/Inspector';
import { setHost } from '../../../renderer/host/hostContext';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { sequentialCrew } from '../document/crewFixtures';
import { MemoryHost } from '../document/memoryHost';

const PATH = 'brief.crew.json';
const store = () => useDocumentStore.getState();

beforeEach(async () => {
  const host = new MemoryHost();
  host.files.set(PATH, JSON.stringify(sequentialCrew()));
  setHost(host);
  useUiStore.getState().select([]);
  await store().load(PATH);
});

afterEach(async () => {
  cleanup();
  await store().flushSave();
});

describe('crew budget', () => {
  it('sets maxTokens and maxCostUsd on the crew; clearing both removes the budget', () => {
    render(<Inspector />);
    const tokens = screen.getByTestId('field-crew-budget-tokens') as HTMLInputElement;
    const cost = screen.getByTestId('field-crew-budget-cost') as HTMLInputElement;
    fireEvent.change(tokens, { target: { value: '5000' } });
    expect(store().doc?.budget).toEqual({ maxTokens: 5000 });
    fireEvent.change(cost, { target: { value: '0.25' } });
    expect(store().doc?.budget).toEqual({ maxTokens: 5000, maxCostUsd: 0.25 });
    expect(store().problems).toEqual([]);
    fireEvent.change(tokens, { target: { value: '' } });
    fireEvent.change(cost, { target: { value: '' } });
    expect(store().doc && 'budget' in store().doc!).toBe(false);
  });
});
