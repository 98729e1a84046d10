import { describe, expect, it } from 'vitest';
import type { CrewDraft } from '../../../renderer/commands/crewDraft';
import { computeFlowLayout } from '../../../renderer/commands/flow/flowLayout';

/** A router whose three routes each have a listener, the listeners declared in `listenerOrder`. */
function routerFlow(listenerOrder: string[]): CrewDraft {
  const listener = (route: string) => ({ id: `on_${route}`, name: `on_${route}`, trigger: { listen: { route } }, body: { type: 'script', code: 'return input;' } });
  return {
    kind: 'flow',
    version: 1,
    id: 'triage',
    name: 'Triage',
    state: { initial: {} },
    methods: [
      { id: 'start', name: 'start', trigger: { start: true }, body: { type: 'script', code: 'return "x";' } },
      { id: 'triage', name: 'triage', trigger: { listen: 'start' }, routes: ['urgent', 'normal', 'spam'], body: { type: 'rules', rules: [], default: 'normal' } },
      ...listenerOrder.map(listener),
    ],
  } as unknown as CrewDraft;
}

describe('flow auto-layout', () => {
  it("stacks a router's route listeners in the order of its routes, whatever order they are declared in", () => {
    for (const order of [['urgent', 'normal', 'spam'], ['spam', 'normal', 'urgent'], ['normal', 'spam', 'urgent']]) {
      const at = computeFlowLayout(routerFlow(order));
      const column = ['urgent', 'normal', 'spam'].map((r) => at[`method:on_${r}`]!);
      expect(new Set(column.map((p) => p.x)).size, order.join()).toBe(1);
      expect(column.map((p) => p.y), order.join()).toEqual([...column.map((p) => p.y)].sort((a, b) => a - b));
      // Stacked without overlapping (a method is 92 px tall).
      expect(column[1]!.y - column[0]!.y, order.join()).toBeGreaterThanOrEqual(92);
    }
  });
});
