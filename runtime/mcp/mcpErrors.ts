/** MCP server settings that cannot be used (an environment variable they name is not set…). Bad input. */
export class McpConfigInvalid extends Error {
  override name = 'McpConfigInvalid';
}

/** An MCP server could not be started or reached, or did not answer its handshake. */
export class McpServerUnavailable extends Error {
  override name = 'McpServerUnavailable';
  constructor(
    readonly server: string,
    reason: string,
  ) {
    super(`MCP server "${server}" could not be started: ${reason}`);
  }
}
