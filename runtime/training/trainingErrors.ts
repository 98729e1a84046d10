/** A crew, role and version number that has no suggestion version. */
export class SuggestionVersionNotFound extends Error {
  override name = 'SuggestionVersionNotFound';
  constructor(
    readonly crewId: string,
    readonly role: string,
    readonly version: number,
    readonly known: number[],
  ) {
    super(
      `crew "${crewId}" role "${role}" has no suggestion version ${version}` +
        (known.length > 0 ? ` (versions: ${[...known].sort((a, b) => a - b).join(', ')})` : ' (it has no versions)'),
    );
  }
}

/** The change asked for does not fit the versions as they are (nothing to roll back to…). */
export class VersionConflict extends Error {
  override name = 'VersionConflict';
}

/**
 * The evaluator model's reply could not be used, even after it was sent its error once and asked
 * again. Nothing is stored: an unreadable evaluation never becomes an empty suggestion list.
 */
export class EvaluatorReplyInvalid extends Error {
  override name = 'EvaluatorReplyInvalid';
  constructor(
    /** What was being evaluated (e.g. `role "Writer"` or `task "draft", iteration 2`). */
    readonly subject: string,
    readonly problem: string,
    readonly reply: string,
  ) {
    super(`the evaluator's reply for ${subject} is not valid after one repair attempt: ${problem} (reply: ${JSON.stringify(reply.slice(0, 300))})`);
  }
}

/** A training or test was asked for something that cannot be done (0 iterations, a crew without tasks for it). */
export class TrainingInvalid extends Error {
  override name = 'TrainingInvalid';
}

/** One of a training session's crew runs did not complete, which ends the session. */
export class TrainingRunFailed extends Error {
  override name = 'TrainingRunFailed';
}
