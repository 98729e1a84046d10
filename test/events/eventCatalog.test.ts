import { describe, expect, it } from 'vitest';
import { EVENT_CATALOG, EVENT_PAYLOAD_SCHEMAS, familyOf } from '../../shared/events/eventCatalog';
import { LIVE_TREE_LINES } from '../../runtime/cli/liveTreeLines';

/**
 * The event catalog is the one list of events; each registry that shows events is complete against it.
 * (The compiler already refuses a registry that lacks a family or an event; this says which, by name,
 * and catches a family registered under another family's name.) The run view's folds: test/renderer/run/runFolds.test.ts.
 */
const families = Object.keys(EVENT_CATALOG) as (keyof typeof EVENT_CATALOG)[];

describe('the event catalog', () => {
  it('names each event after its family, and the merged schemas hold every family’s events and nothing else', () => {
    const all = families.flatMap((family) => Object.keys(EVENT_CATALOG[family]).map((type) => [family, type] as const));
    expect(all.filter(([family, type]) => familyOf(type) !== family)).toEqual([]);
    expect(Object.keys(EVENT_PAYLOAD_SCHEMAS).sort()).toEqual(all.map(([, type]) => type).sort());
    expect(families).toEqual(expect.arrayContaining(['run', 'task', 'agent', 'llm', 'tool', 'delegation', 'guardrail', 'memory', 'flow', 'human', 'budget', 'training']));
  });

  it('the CLI live tree has a line (or says none) for every event of every family', () => {
    const missing: string[] = [];
    for (const family of families) {
      const lines = (LIVE_TREE_LINES as Record<string, Record<string, unknown> | undefined>)[family];
      if (!lines) {
        missing.push(`family ${family}`);
        continue;
      }
      for (const type of Object.keys(EVENT_CATALOG[family])) if (!(type in lines)) missing.push(type);
      for (const type of Object.keys(lines)) if (!(type in EVENT_CATALOG[family])) missing.push(`${type} (not in the catalog)`);
    }
    expect(missing).toEqual([]);
  });
});
