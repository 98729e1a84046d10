import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FlowDocumentSchema } from '../../shared/model/flow';
import { importCrewAiProject } from '../../runtime/crewai/importProject';

const fixture = join(import.meta.dirname, '../fixtures/crewai/flows/partial_flow');
const main = 'src/partial_flow/main.py';

describe('CrewAI Flow import is partial: an unreadable router or trigger is one unmapped item, not a failed import', () => {
  it('imports the readable methods, stubs the variable-route router with its labels, leaves out what can never run', async () => {
    const { flow, crews, unmapped } = await importCrewAiProject(fixture);
    expect(crews.map((c) => c.id)).toEqual(['score_crew']);
    expect(FlowDocumentSchema.safeParse(flow).success).toBe(true);

    const methods = Object.fromEntries(flow!.methods.map((m) => [m.name, m]));
    expect(flow!.methods.map((m) => m.name)).toEqual(['score_idea_crew', 'score_idea', 'pick_lane', 'summarize', 'celebrate']);
    expect(methods.score_idea_crew!.body).toMatchObject({ type: 'crew', file: 'score_crew.crew.json', inputs: { idea: '{state.idea}' } });
    expect(methods.summarize!.body).toEqual({ type: 'set_state', set: { verdict: 'reviewed: {state.verdict}' } });
    // `route = "high" if … else "low"; return route`: a stub that keeps the labels it can read.
    expect(methods.pick_lane!.trigger).toEqual({ listen: 'score_idea' });
    expect(methods.pick_lane!.routes).toEqual(['high', 'low']);
    expect(methods.pick_lane!.body).toMatchObject({ type: 'script', code: 'return input;', stub: { file: main, line: 29 } });
    // Its listener stays, since the stub still has the route.
    expect(methods.celebrate!.trigger).toEqual({ listen: { route: 'high' } });

    const at = (item: string) => unmapped.filter((u) => u.item.includes(item)).map((u) => `${u.path} ${u.item}`);
    expect(at('triage')).toEqual([`${main}:22 @router() on triage`]);
    expect(at('pick_lane')).toEqual([`${main}:31 pick_lane: return route`]);
    // `@router()` has no trigger: it is left out, and so are the listeners of its routes, in turn.
    expect(at('fast_track_it')).toEqual([`${main}:41 method fast_track_it`]);
    expect(at('announce')).toEqual([`${main}:45 method announce`]);
    // A method listening to its own name listens to that route (it cannot run on its own completion); no router chooses it.
    expect(at('polish')).toEqual([`${main}:49 method polish`]);
    expect(unmapped.find((u) => u.item === 'method polish')!.why).toMatch(/route "polish", which no imported router chooses/);
    expect(unmapped.find((u) => u.item === 'method fast_track_it')!.why).toMatch(/route "fast_track"/);
  });
});
