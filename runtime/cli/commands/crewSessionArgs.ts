import { dirname, resolve } from 'node:path';
import type { CrewDocument } from '../../../shared/model/crew';
import { loadWorkspaceDocument } from '../../document/workspaceDocument';
import { parseInputs, parseOptions } from '../options';
import { UsageError } from '../usage';

/** The options `crewdeck train` and `crewdeck test` share. */
const CREW_SESSION_OPTIONS = {
  n: { type: 'string', short: 'n' },
  'eval-model': { type: 'string' },
  input: { type: 'string', multiple: true, short: 'i' },
  inputs: { type: 'string' },
  workspace: { type: 'string', short: 'w' },
  json: { type: 'boolean', default: false },
} as const;
/** `test -q`: the score table without the live tree (training asks at the terminal, so it has none). */
const QUIET_OPTION = { quiet: { type: 'boolean', short: 'q', default: false }, offline: { type: 'string' } } as const;

/** `-n N`: a whole number of iterations from 1 to `max`. */
export function parseIterations(value: string | undefined, command: string, max: number): number {
  if (value === undefined) throw new UsageError(`${command} needs -n N (how many iterations)`);
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`-n must be a whole number from 1 to ${max}, not "${value}"`);
  return n;
}

/** `<command> <crew file> -n N [--eval-model PROFILE] [-i k=v] [--inputs JSON] [-w DIR] [--json]` (and `-q` for test). */
export function parseCrewSessionArgs(command: 'train' | 'test', args: string[], maxIterations: number) {
  const { values, positionals } = parseOptions(args, command === 'test' ? { ...CREW_SESSION_OPTIONS, ...QUIET_OPTION } : CREW_SESSION_OPTIONS);
  const [given] = positionals;
  if (given === undefined || positionals.length !== 1) throw new UsageError(`${command} needs exactly one crew file`);
  const iterations = parseIterations(values.n, command, maxIterations);
  const file = resolve(given);
  return {
    iterations,
    file,
    inputs: parseInputs(values.input, values.inputs),
    evalModel: values['eval-model'],
    workspace: values.workspace ?? dirname(file),
    json: values.json ?? false,
    quiet: 'quiet' in values && values.quiet === true,
    /** `test --offline <runId>`: every run answers from that recorded run (no model is called, not even the evaluator). */
    offline: 'offline' in values && typeof values.offline === 'string' ? values.offline : undefined,
  };
}

/** The crew document in `file` (a flow is a usage error: training and testing work on crews). */
export function loadCrewFile(command: 'train' | 'test', file: string, workspace: string): CrewDocument {
  const loaded = loadWorkspaceDocument(workspace, file);
  if (loaded.kind !== 'crew') throw new UsageError(`${command} works on crews (*.crew.json), not flows`);
  return loaded.doc;
}
