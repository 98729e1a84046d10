import { WorkspaceSettingsSchema, type WorkspaceSettings } from '../../shared/model/workspace';

/**
 * Workspace settings with one scripted profile, `offline`, that answers every model call of the two
 * CrewAI fixture crews (agents, the hierarchical manager and llm guardrail judges). Runs use it through
 * `forceProfile`, so the imported OpenAI/Ollama model settings are never contacted.
 */
export function offlineSettings(): WorkspaceSettings {
  const manager = (taskStart: string, coworker: string) => ({
    when: { system: 'You are Crew Manager.', lastRole: 'user', last: `Current task: ${taskStart}` },
    reply: { content: '', toolCalls: [{ name: 'delegate_work', arguments: { coworker, task: `${taskStart} for Nimbus Notes.`, context: 'Launch in the EU.' } }] },
  });
  return WorkspaceSettingsSchema.parse({
    version: 1,
    models: {
      profiles: {
        offline: {
          provider: 'scripted',
          model: 'crewai-offline',
          script: {
            rules: [
              { when: { system: 'You check whether an answer meets a criterion.' }, reply: '{"pass": true, "reason": "meets the criterion"}' },
              // market_research (sequential)
              { when: { system: 'Senior Data Researcher' }, reply: '- Enterprise copilots: 4.2B USD a year\n- Consumer chat apps: 1.1B USD a year' },
              { when: { system: 'Reporting Analyst' }, reply: '# AI LLMs market report\n\n## Enterprise copilots\n4.2B USD a year.\n\n## Consumer chat apps\n1.1B USD a year.' },
              // launch_campaign (hierarchical)
              manager('Analyse the market', 'Market Analyst'),
              manager('Write a positioning statement', 'Brand Strategist'),
              manager('Write the launch announcement', 'Copywriter'),
              {
                when: { system: 'You are Crew Manager.', last: 'Current task: Summarise the campaign' },
                reply: '{"headline": "Nimbus Notes is here", "positioning": "Notes that design agencies share", "channels": ["newsletter", "LinkedIn"]}',
              },
              { when: { system: 'You are Crew Manager.', lastRole: 'tool' }, reply: 'Nimbus Notes costs 8 EUR where rivals ask 12: the work is done and checked.' },
              { when: { system: 'You are Market Analyst.' }, reply: 'Rivals: Inkpad 12 EUR (freelancers), Sketchbook 15 EUR (studios), Papyr 9 EUR (students).' },
              { when: { system: 'You are Brand Strategist.' }, reply: 'For small design agencies, Nimbus Notes is the notebook the whole studio shares.' },
              { when: { system: 'You are Copywriter.' }, reply: 'Nimbus Notes is here. At 8 EUR it costs less than Inkpad at 12 EUR.' },
            ],
          },
        },
      },
    },
  });
}
