import { jsonNestedTooDeep, MAX_VALUE_DEPTH } from '../../shared/inputRows';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage';

/** node:util parseArgs with errors turned into UsageError. */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
}

/** `--input k=v` (repeatable) and `--inputs '{"k":"v"}'`, merged; --input wins. */
export function parseInputs(pairs: string[] | undefined, json: string | undefined): Record<string, string> {
  const inputs: Record<string, string> = {};
  if (json !== undefined) {
    const deep = jsonNestedTooDeep(json);
    if (deep !== undefined) throw new UsageError(`--inputs nests more than ${MAX_VALUE_DEPTH} levels deep (at character ${deep}); an input is text, and a JSON value in it may nest up to ${MAX_VALUE_DEPTH} levels`);
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new UsageError(`--inputs is not valid JSON: ${(error as Error).message}`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError('--inputs must be a JSON object');
    for (const [k, v] of Object.entries(value)) inputs[k] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  for (const pair of pairs ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--input expects name=value, got "${pair}"`);
    inputs[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return inputs;
}
