import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CrewDocument } from '../../shared/model/crew';
import { parseCrewDocument } from '../../shared/model/parse';
import { WorkspaceSettingsSchema } from '../../shared/model/workspace';
import { importCrewAiProject } from '../../runtime/crewai/importProject';
import { PYTHON_TOOLS_RUN } from '../../runtime/crewai/crews/mapTool';
import { agentPrompts, ofType, runCrew } from '../support/crewHarness';
import { runImportedCrew } from '../support/importedCrew';

/**
 * Crews built in plain Python (Agent/Task/Crew constructed directly, CrewAI's older template and most
 * tutorials) in the three shapes real projects use: module code, functions, and class methods —
 * spread over agents.py / tasks.py / main.py. Each imports, validates and runs.
 */
const fixtures = join(import.meta.dirname, '../fixtures/crewai');

const settings = WorkspaceSettingsSchema.parse({
  version: 1,
  models: { profiles: { offline: { provider: 'scripted', model: 'plain-offline', script: { rules: [{ when: { system: '/You are ([^.]+)\\./' }, reply: 'Done, as asked.' }] } } } },
});

async function runs(doc: CrewDocument, inputs: Record<string, string>) {
  const { result, events } = await runCrew(doc, { forceProfile: 'offline', settings, inputs });
  expect(result.status).toBe('completed');
  expect(ofType(events, 'task.completed').map((e) => e.taskId)).toEqual(doc.tasks.map((t) => t.id));
  return events;
}

function valid(doc: CrewDocument): void {
  const parsed = parseCrewDocument(doc);
  expect(parsed.ok ? [] : parsed.problems).toEqual([]);
}

describe('plain-Python CrewAI crews import like @CrewBase ones', () => {
  it('module code: yaml.safe_load configs, Agent(config=…), Task(config=…), Crew(...) at the top level', async () => {
    const { crews, unmapped } = await importCrewAiProject(join(fixtures, 'patterns/plain_script'));
    expect(crews).toHaveLength(1);
    const doc = crews[0]!;
    valid(doc);
    expect(doc.agents.map((a) => [a.id, a.role])).toEqual([['summariser', 'Inbox Summariser']]);
    expect(doc.tasks.map((t) => [t.id, t.agentId])).toEqual([['digest', 'summariser']]);
    expect(unmapped).toEqual([]);
    const events = await runs(doc, { emails: 'The launch moved to Friday.' });
    expect(agentPrompts(events)[0]).toContain('Summarise these emails: The launch moved to Friday.');
  });

  it('functions across agents.py / tasks.py / main.py: parameters, f-strings, module constants, context and an input() prompt', async () => {
    const { crews, unmapped, profiles } = await importCrewAiProject(join(fixtures, 'plain/functions_split'));
    expect(crews).toHaveLength(1);
    const doc = crews[0]!;
    valid(doc);
    expect(doc.agents.map((a) => [a.id, a.role, a.llm])).toEqual([
      ['researcher', 'Market Researcher', 'ollama/llama3.1 (at http://localhost:11434/v1, temperature 0.2)'],
      ['writer', 'Brief Writer', undefined],
    ]);
    expect(profiles['ollama/llama3.1 (at http://localhost:11434/v1, temperature 0.2)']).toEqual({ provider: 'openai', model: 'llama3.1', baseUrl: 'http://localhost:11434/v1', nativeTools: true, temperature: 0.2 });
    // The f-string's constant is filled in; the product asked for with input() is a crew input with the prompt as its description.
    expect(doc.tasks.map((t) => [t.id, t.description, t.agentId, t.context, t.outputFile])).toEqual([
      ['research', 'List the 5 complaints buyers repeat most about {product}.', 'researcher', undefined, undefined],
      ['brief', 'Write a one-page brief from the research.', 'writer', ['research'], 'brief.md'],
    ]);
    expect(doc.inputs).toEqual([{ name: 'product', description: 'Which product should we look at?' }]);
    expect(unmapped).toEqual([{ path: 'agents.py:7', item: 'researcher.verbose=true', why: 'not needed: Crewdeck records every step of a run in its trace' }]);
    const events = await runs(doc, { product: 'the Nimbus kettle' });
    expect(agentPrompts(events, 'Market Researcher')[0]).toContain('List the 5 complaints buyers repeat most about the Nimbus kettle.');
  });

  it('class methods: TripAgents / TripTasks classes, a crew class whose constructor takes the inputs, dedent() text', async () => {
    const result = await importCrewAiProject(join(fixtures, 'plain/class_methods'));
    const { crews, unmapped, profiles } = result;
    expect(crews).toHaveLength(1);
    const doc = crews[0]!;
    valid(doc);
    expect(doc.agents.map((a) => [a.id, a.role, a.backstory, a.llm])).toEqual([
      ['expert', 'Local City Expert', 'A guide who lived in the city for years\nand knows its hidden places.', 'groq/llama-3.1-8b-instant (temperature 0.3)'],
      ['planner', 'Trip Planner', 'You plan trips that do not rush.', 'groq/llama-3.1-8b-instant (temperature 0.3)'],
    ]);
    expect(profiles['groq/llama-3.1-8b-instant (temperature 0.3)']).toEqual({ provider: 'openai', model: 'llama-3.1-8b-instant', baseUrl: 'https://api.groq.com/openai/v1', apiKeyEnv: 'GROQ_API_KEY', temperature: 0.3 });
    expect(doc.tasks.map((t) => t.description)).toEqual(['Gather what a visitor should know about {city}:\nsights, food and weather, for someone who likes {interests}.', 'Plan {days} days in {city} from the guide.']);
    expect(doc.inputs).toEqual([
      { name: 'city', description: 'Which city are you visiting?' },
      { name: 'interests', description: 'What do you like?' },
      { name: 'days', description: 'How many days?' },
    ]);
    // A @tool function defined inside a tools class (WeatherTools.forecast, the older CrewAI examples' style) is
    // named and listed: the Python tool bridge serves module-level @tool functions and BaseTool classes.
    expect(PYTHON_TOOLS_RUN).toBe(true);
    expect(doc.agents[0]!.tools).toEqual([]);
    expect(unmapped).toEqual([
      {
        path: 'agents.py:14',
        item: 'expert.tools: WeatherTools.forecast',
        why: 'a @tool function defined inside the class WeatherTools (tools/weather.py:6); the Python tool bridge serves module-level @tool functions and BaseTool classes — move it to module level to run it',
      },
      { path: 'main.py:20', item: 'crew.verbose=true', why: 'not needed: Crewdeck records every step of a run in its trace' },
    ]);
    const { result: run, events } = await runImportedCrew(result, doc, settings.models.profiles.offline!, { inputs: { city: 'Ghent', interests: 'old buildings', days: '2' } });
    expect(run.status).toBe('completed');
    expect(agentPrompts(events, 'Trip Planner')[0]).toContain('Plan 2 days in Ghent from the guide.');
  });
});
