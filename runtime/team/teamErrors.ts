/** PostgreSQL or Redis could not be reached (at start, or for longer than a caller waits). */
export class TeamServiceUnavailable extends Error {
  override name = 'TeamServiceUnavailable';
  constructor(
    readonly service: 'PostgreSQL' | 'Redis',
    readonly url: string,
    reason: string,
  ) {
    super(`${service} at ${url} is unreachable: ${reason}`);
  }
}

/** A run or deployment a request names does not exist. */
export class TeamNotFound extends Error {
  override name = 'TeamNotFound';
}

/** A request conflicts with the run's state (a stale or repeated requestId, a run that cannot be cancelled). */
export class TeamConflict extends Error {
  override name = 'TeamConflict';
}

/** A request body or parameter is wrong: `field` names it (a JSON path such as `webhook.url`). */
export class TeamBadRequest extends Error {
  override name = 'TeamBadRequest';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}
