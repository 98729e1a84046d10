import { hasKnownSecrets, redactKnown } from '../redactSecrets';

let installed = false;

/**
 * Everything the CLI prints goes through `redactKnown`: a secret the runtime read (an API key, an MCP
 * `${VAR}` value) never reaches the terminal or a log, whichever command or error path printed it.
 */
export function redactStandardStreams(): void {
  if (installed) return;
  installed = true;
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (!hasKnownSecrets()) return write(chunk, ...rest);
      if (typeof chunk === 'string') return write(redactKnown(chunk), ...rest);
      if (chunk instanceof Uint8Array) return write(redactKnown(Buffer.from(chunk).toString('utf8')), ...rest);
      return write(chunk, ...rest);
    }) as typeof stream.write;
  }
}
