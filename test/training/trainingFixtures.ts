import { crew, scripted } from '../support/crewHarness';

/** Replies of the evaluator, keyed by what the scripted model sees in its system prompt. */
export const EVALUATOR_SYSTEM = 'You evaluate how an AI agent did during training';

export function evaluation(suggestions: string[], quality = 7, summary = 'The writer improved after feedback.'): string {
  return JSON.stringify({ suggestions, quality, summary });
}

/**
 * A two-agent crew (Writer drafts, Editor polishes) on scripted models. Each agent answers
 * "<Role> first answer" and, after human feedback, "<Role> improved answer". The Writer's model also
 * answers the training evaluator with `writerEvaluations` (one per use, the last repeating).
 */
export function writerEditorCrew(writerEvaluations: string[] = [evaluation(['Start with a one-line summary.', 'Use bullet points for the key facts.'])]) {
  const agentModel = (role: string, evaluations: string[]) =>
    scripted(
      {
        rules: [
          { when: { system: EVALUATOR_SYSTEM }, reply: evaluations },
          { when: { last: 'A human reviewed your final answer' }, reply: `${role} improved answer` },
        ],
        default: `${role} first answer`,
      },
      `model-${role.toLowerCase()}`,
    );
  return crew({
    id: 'writing-crew',
    name: 'Writing crew',
    agents: [
      { id: 'writer', role: 'Writer', goal: 'Write drafts', backstory: 'A writer.', llm: agentModel('Writer', writerEvaluations) },
      { id: 'editor', role: 'Editor', goal: 'Polish drafts', backstory: 'An editor.', llm: agentModel('Editor', [evaluation(['Keep the tone formal.'])]) },
    ],
    tasks: [
      { id: 'draft', description: 'Draft a note about the launch', expectedOutput: 'A short note', agentId: 'writer' },
      { id: 'polish', description: 'Polish the note', expectedOutput: 'A polished note', agentId: 'editor' },
    ],
  });
}
