/** A model call failed for good (after retries, or with a status that is not retried). */
export class ModelCallFailed extends Error {
  override name = 'ModelCallFailed';
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The conversation no longer fits the model's context window. */
export class ContextWindowExceeded extends ModelCallFailed {
  override name = 'ContextWindowExceeded';
}

/** The server or model does not support native tool calling; the agent falls back to ReAct. */
export class ToolsUnsupported extends ModelCallFailed {
  override name = 'ToolsUnsupported';
}

/** The call was aborted (run cancelled or execution time exceeded). */
export class ModelCallAborted extends Error {
  override name = 'ModelCallAborted';
  constructor(message = 'model call aborted') {
    super(message);
  }
}

/** A scripted model has no reply left for a request. */
export class ScriptExhausted extends ModelCallFailed {
  override name = 'ScriptExhausted';
}
