import { randomBytes } from 'node:crypto';

/** Time-sortable, unique run ids: `run_<time base36>_<random>`. */
export function newRunId(now: number = Date.now()): string {
  return `run_${now.toString(36)}_${randomBytes(4).toString('hex')}`;
}
