import { UsageError } from '../usage';

/** `-n N`: a whole number of iterations from 1 to `max`. */
export function parseIterations(value: string | undefined, command: string, max: number): number {
  if (value === undefined) throw new UsageError(`${command} needs -n N (how many iterations)`);
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`-n must be a whole number from 1 to ${max}, not "${value}"`);
  return n;
}
