import { runAgentBody } from './agent';
import { runCrewBody } from './crew';
import { runForEach } from './forEach';
import { askForFeedback } from './humanFeedback';
import { runLlm } from './llm';
import { runRules } from './rules';
import { runFlowScript } from './script';
import { runSetState } from './setState';
import type { BodyRunners } from './types';

/** One runner per body kind; a kind without one does not compile. */
export const BODY_RUNNERS = {
  crew: runCrewBody,
  agent: runAgentBody,
  llm: runLlm,
  for_each: runForEach,
  human_feedback: askForFeedback,
  script: runFlowScript,
  set_state: runSetState,
  rules: runRules,
} satisfies BodyRunners;
