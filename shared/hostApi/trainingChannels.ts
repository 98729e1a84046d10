import { z } from 'zod';
import { SuggestionDiffSchema, SuggestionVersionSchema, TrainingRecordSchema, TrainingSessionSchema } from '../training';
import { DocumentPathSchema, Id, Inputs, type ChannelSchemas } from './requestFields';

/** An agent role as suggestions are keyed (the role after input interpolation). */
const RoleName = z.string().min(1).max(500);
const VersionNumber = z.number().int().min(1);
const SuggestionText = z.string().trim().min(1, 'must not be empty').max(2000);

export const TRAINING_CHANNELS = {
  /**
   * Training (SPEC §6). A training session runs the crew `iterations` times with every task reviewed:
   * each review is an ordinary `human.requested` (kind task_review) answered with `human.answer`; the
   * runs' `run.started` carry `purpose: { kind: 'training', sessionId, iteration, iterations }`.
   * Resolves once the first run has opened; progress comes as `training.changed` pushes.
   */
  'training.start': {
    request: z.strictObject({
      path: DocumentPathSchema,
      iterations: z.number().int().min(1).max(50),
      /** A model profile that evaluates every role instead of the agents' own models. */
      evalModel: z.string().min(1).max(200).optional(),
      inputs: Inputs.default({}),
    }),
    response: z.object({ trainingId: z.string(), runId: z.string() }),
  },
  'training.cancel': { request: z.strictObject({ trainingId: Id }), response: z.object({ cancelled: z.boolean() }) },
  /** Training sessions, newest first (optionally one crew's). */
  'training.sessions': {
    request: z.strictObject({ crewId: Id.optional() }),
    response: z.object({ sessions: z.array(TrainingSessionSchema) }),
  },
  /** Suggestion versions of a crew: by role, newest version first. */
  'training.versions': {
    request: z.strictObject({ crewId: Id, role: RoleName.optional() }),
    response: z.object({ versions: z.array(SuggestionVersionSchema) }),
  },
  /** Feedback records (initial output, feedback, improved output), oldest first; `ids` = a version's `recordIds`. */
  'training.records': {
    request: z.strictObject({ crewId: Id, role: RoleName.optional(), trainingId: Id.optional(), ids: z.array(z.number().int()).max(10_000).optional() }),
    response: z.object({ records: z.array(TrainingRecordSchema) }),
  },
  /** Rewords one suggestion (0-based index); the earlier list goes to the version's history. */
  'training.updateSuggestion': {
    request: z.strictObject({ crewId: Id, role: RoleName, version: VersionNumber, index: z.number().int().min(0), text: SuggestionText }),
    response: z.object({ version: SuggestionVersionSchema }),
  },
  /** Replaces a version's whole list (add, remove, reorder); the earlier list goes to its history. */
  'training.setSuggestions': {
    request: z.strictObject({ crewId: Id, role: RoleName, version: VersionNumber, suggestions: z.array(SuggestionText).max(100) }),
    response: z.object({ version: SuggestionVersionSchema }),
  },
  /** Makes a version the role's active one (approves a draft); the role's other active version is disabled. */
  'training.activate': {
    request: z.strictObject({ crewId: Id, role: RoleName, version: VersionNumber }),
    response: z.object({ version: SuggestionVersionSchema }),
  },
  'training.disable': {
    request: z.strictObject({ crewId: Id, role: RoleName, version: VersionNumber }),
    response: z.object({ version: SuggestionVersionSchema }),
  },
  /** The version before the active one becomes active; the active one is disabled. Conflict when there is none. */
  'training.rollback': {
    request: z.strictObject({ crewId: Id, role: RoleName }),
    response: z.object({ version: SuggestionVersionSchema }),
  },
  'training.diff': {
    request: z.strictObject({ crewId: Id, role: RoleName, from: VersionNumber, to: VersionNumber }),
    response: z.object({ diff: SuggestionDiffSchema }),
  },
} as const satisfies ChannelSchemas;
